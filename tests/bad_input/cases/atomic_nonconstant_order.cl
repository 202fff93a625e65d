kernel void k(global atomic_int* a, int order) {
  atomic_fetch_add_explicit(a, 1, order);
}
