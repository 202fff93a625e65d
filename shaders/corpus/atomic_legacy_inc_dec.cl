// atomic_inc and atomic_dec on global and __local counters; the tickets
// atomic_inc hands out are a permutation, checked here as a bitmap.
// @kernel inc_dec
// @global 512
// @local 64
// @arg counters global uint[2] fill(0)
// @arg seen global uint[16] zero
// @arg group_counts global uint[8] zero
// @check counters exact
// @check seen exact
// @check group_counts exact
// @bench-global 4194304
// @bench-arg seen global uint[131072] zero
// @bench-arg group_counts global uint[65536] zero
__kernel void inc_dec(__global uint* counters, __global uint* seen, __global uint* group_counts) {
  __local uint local_count;
  if (get_local_id(0) == 0) local_count = 100;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint ticket = atomic_inc(&counters[0]);
  atomic_dec(&counters[1]);
  atomic_or(&seen[ticket / 32], 1u << (ticket % 32));
  atomic_dec(&local_count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) group_counts[get_group_id(0)] = local_count;
}
