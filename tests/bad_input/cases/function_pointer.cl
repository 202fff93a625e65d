int twice(int x) { return 2 * x; }
kernel void k(global int* p) {
  int (*f)(int) = twice;
  p[0] = f(1);
}
