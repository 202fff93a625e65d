kernel void k(global int* p) {
  int x = p;
  p[0] = x;
}
