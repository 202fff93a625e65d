kernel void k(global int* p) {
  atomic_int a;
  atomic_init(&a, 0);
  p[0] = atomic_load(&a);
}
