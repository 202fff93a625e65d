kernel void k(global int* p) {
  printf("%d\n", p[0]);
}
