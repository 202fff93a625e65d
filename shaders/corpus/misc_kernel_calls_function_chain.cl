// A chain of ordinary (inlinable) functions with vector arguments and
// returns, a static-inline helper, and a recursion-free Horner polynomial.
// @kernel polynomial
// @global 256
// @arg x global int[256] random(273, -10, 10)
// @arg coeffs constant int[6] random(274, -5, 5)
// @arg out global int2[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg x global int[16777216] random(273, -10, 10)
// @bench-arg out global int2[16777216] zero
static inline int horner(__constant int* c, int n, int x) {
  int acc = 0;
  for (int k = n - 1; k >= 0; --k) acc = acc * x + c[k];
  return acc;
}
int2 pair(int a, int b) { return (int2)(a + b, a - b); }
int2 twice(int2 v) { return v * 2; }
__kernel void polynomial(__global const int* x, __constant int* coeffs, __global int2* out) {
  const int v = x[get_global_id(0)];
  out[get_global_id(0)] = twice(pair(horner(coeffs, 6, v), horner(coeffs, 3, -v)));
}
