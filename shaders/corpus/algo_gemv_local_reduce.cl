// Matrix-vector product with one work-group per row: strided partial dot
// products, then a __local reduction.
// @kernel gemv
// @global 512
// @local 32
// @arg m global int[4096] random(24, -20, 20)
// @arg x global int[256] random(25, -20, 20)
// @arg y global int[16] zero
// @check y exact
// @bench-global 4194304
// @bench-arg m global int[33554432] random(24, -20, 20)
// @bench-arg y global int[131072] zero
__kernel void gemv(__global const int* m, __global const int* x, __global int* y) {
  __local int partial[32];
  const int row = get_group_id(0), lid = get_local_id(0);
  int acc = 0;
  for (int k = lid; k < 256; k += 32) acc += m[row * 256 + k] * x[k];
  partial[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 16; s > 0; s >>= 1) {
    if (lid < s) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) y[row] = partial[0];
}
