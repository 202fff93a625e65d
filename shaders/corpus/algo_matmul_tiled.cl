// Tiled matrix multiply with two 2-D __local tiles (the classic 16x16
// shared-memory version); integer-valued floats make it exact.
// @kernel matmul_tiled
// @global 64,64
// @local 16,16
// @arg a global float[4096] randint(18, -4, 4)
// @arg b global float[4096] randint(19, -4, 4)
// @arg c global float[4096] zero
// @arg n int 64
// @check c exact
// @bench-global 768,768
// @bench-arg a global float[589824] randint(18, -4, 4)
// @bench-arg b global float[589824] randint(19, -4, 4)
// @bench-arg c global float[589824] zero
// @bench-arg n int 768
#define TILE 16
__kernel void matmul_tiled(__global const float* a, __global const float* b, __global float* c, int n) {
  __local float as[TILE][TILE];
  __local float bs[TILE][TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    as[ty][tx] = a[row * n + t * TILE + tx];
    bs[ty][tx] = b[(t * TILE + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) acc += as[ty][k] * bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
