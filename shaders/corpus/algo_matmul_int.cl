// Integer matrix multiply, each work-item computing a row of four outputs
// with int4 vectors.
// @kernel matmul_int4
// @global 8,32
// @arg a global int[1024] random(20, -100, 100)
// @arg b global int4[256] random(21, -100, 100)
// @arg c global int4[256] zero
// @check c exact
// @bench-skip the matrix size (N = 32) is #defined in the code
#define N 32
__kernel void matmul_int4(__global const int* a, __global const int4* b, __global int4* c) {
  const int col4 = get_global_id(0);  // which group of four columns
  const int row = get_global_id(1);
  int4 acc = (int4)(0);
  for (int k = 0; k < N; ++k) acc += a[row * N + k] * b[k * (N / 4) + col4];
  c[row * (N / 4) + col4] = acc;
}
