kernel void k(bool flag, global int* p) {
  p[0] = flag;
}
