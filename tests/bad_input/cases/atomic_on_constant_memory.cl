kernel void k(constant int* p, global int* out) {
  out[0] = atomic_add(p, 1);
}
