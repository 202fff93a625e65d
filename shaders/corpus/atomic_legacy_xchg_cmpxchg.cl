// atomic_cmpxchg as a lock-free maximum (retry loop) on global and
// __local memory; atomic_xchg initialises the __local one.
// @kernel cas_loops
// @global 512
// @local 128
// @arg values global int[512] random(232, -100000, 100000)
// @arg result global int[1] fill(-2147483648)
// @arg group_max global int[4] zero
// @check result exact
// @check group_max exact
// @bench-global 1048576
// @bench-arg values global int[1048576] random(232, -100000, 100000)
// @bench-arg group_max global int[8192] zero
__kernel void cas_loops(__global const int* values, __global int* result, __global int* group_max) {
  __local int local_max;
  if (get_local_id(0) == 0) atomic_xchg(&local_max, INT_MIN);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int v = values[get_global_id(0)];
  int seen = *result;
  for (;;) {
    if (v <= seen) break;
    int old = atomic_cmpxchg(result, seen, v);
    if (old == seen) break;
    seen = old;
  }
  int l = local_max;
  while (v > l) {
    int old = atomic_cmpxchg(&local_max, l, v);
    if (old == l) break;
    l = old;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) group_max[get_group_id(0)] = local_max;
}
