// atomic_min, atomic_max (signed and unsigned), atomic_and, atomic_or,
// atomic_xor on global memory: every result is order-independent.
// @kernel min_max_bits
// @global 1024
// @arg values global int[1024] bits(231)
// @arg results global int[5] zero
// @arg uresults global uint[2] zero
// @check results exact
// @check uresults exact
// @bench-global 1048576
// @bench-arg values global int[1048576] bits(231)
__kernel void min_max_bits(__global const int* values, __global int* results, __global uint* uresults) {
  const int v = values[get_global_id(0)];
  atomic_min(&results[0], v);
  atomic_max(&results[1], v);
  atomic_and(&results[2], v | 0x0f0f0f0f);
  atomic_or(&results[3], v & 0x11111111);
  atomic_xor(&results[4], v);
  atomic_min(&uresults[0], (uint)v | 0x80000000u);
  atomic_max(&uresults[1], (uint)v);
}
