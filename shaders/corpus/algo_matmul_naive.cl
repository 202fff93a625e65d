// Naive matrix multiply C = A * B (32x32, row-major), one work-item per
// element of C. Integer-valued floats keep every product and sum exact, so
// any contraction into fma gives the same result.
// @kernel matmul
// @global 32,32
// @local 8,8
// @arg a global float[1024] randint(1, -8, 8)
// @arg b global float[1024] randint(2, -8, 8)
// @arg c global float[1024] zero
// @arg n int 32
// @check c exact
// @bench-global 640,640
// @bench-arg a global float[409600] randint(1, -8, 8)
// @bench-arg b global float[409600] randint(2, -8, 8)
// @bench-arg c global float[409600] zero
// @bench-arg n int 640
__kernel void matmul(__global const float* a, __global const float* b, __global float* c, int n) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}
