kernel void k(global int* p, int n) {
  int a[n];
  a[0] = 1;
  p[0] = a[0];
}
