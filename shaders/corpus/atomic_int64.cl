// 64-bit atomics (cl_khr_int64_base_atomics and extended): atom_add,
// atom_max, atom_xor on ulong counters.
// @kernel atomics64
// @requires cl_khr_int64_base_atomics cl_khr_int64_extended_atomics
// @global 512
// @arg values global ulong[512] bits(233)
// @arg results global ulong[3] zero
// @check results exact
// @bench-global 1048576
// @bench-arg values global ulong[1048576] bits(233)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics64(__global const ulong* values, __global ulong* results) {
  const ulong v = values[get_global_id(0)];
  atom_add(&results[0], v >> 8);
  atom_max(&results[1], v);
  atom_xor(&results[2], v);
}
