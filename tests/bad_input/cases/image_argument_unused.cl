kernel void k(global int* p, read_only image2d_t image) {
  p[0] = 1;
}
