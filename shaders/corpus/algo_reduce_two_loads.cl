// Sum reduction that adds two elements per work-item while loading (one
// block width apart, each behind its own bounds check, so n need not fill
// the last work-group), then halves the active work-items each step over
// __local memory, keeping the running sum in a register.
// @kernel reduce_two_loads
// @global 512
// @local 128
// @arg in global uint[1000] random(301, 0, 100000)
// @arg block_sums global uint[4] zero
// @arg n uint 1000
// @check block_sums exact
// @bench-global 16777088
// @bench-arg in global uint[33554000] random(301, 0, 100000)
// @bench-arg block_sums global uint[131071] zero
// @bench-arg n uint 33554000
#define BLOCK 128

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void reduce_two_loads(__global const uint* in, __global uint* block_sums, const uint n) {
  __local uint sdata[BLOCK];
  const uint tid = get_local_id(0);
  const uint i = get_group_id(0) * (BLOCK * 2) + tid;

  uint sum = 0;
  if (i < n) sum = in[i];
  if (i + BLOCK < n) sum += in[i + BLOCK];
  sdata[tid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) block_sums[get_group_id(0)] = sum;
}
