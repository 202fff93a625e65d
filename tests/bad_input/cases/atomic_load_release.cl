kernel void k(global atomic_int* a, global int* p) {
  p[0] = atomic_load_explicit(a, memory_order_release);
}
