kernel void k(global int* global* p) {
  p[0][0] = 1;
}
