kernel void k(global int* p, uint flags) {
  p[0] = 1;
  barrier(flags);
}
