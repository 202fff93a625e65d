int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
kernel void k(global int* p) {
  p[0] = fact(p[1]);
}
