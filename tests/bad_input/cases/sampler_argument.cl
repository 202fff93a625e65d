kernel void k(sampler_t sampler, global int* p) {
  p[0] = 1;
}
