kernel void k(global int* p) {
  p[0] = 1;
  mem_fence(0xff);
}
