kernel void k(size_t n, global int* p) {
  p[0] = n;
}
