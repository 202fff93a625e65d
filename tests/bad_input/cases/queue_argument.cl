kernel void k(queue_t q, global int* p) {
  p[0] = 1;
}
