// Histogram of 64 bins straight into global memory with atom_inc (the
// cl_khr_global_int32_base_atomics spelling).
// @kernel histogram_global
// @global 2048
// @arg values global uint[2048] random(34, 0, 1000)
// @arg hist global uint[64] zero
// @check hist exact
// @bench-global 16777216
// @bench-arg values global uint[16777216] random(34, 0, 1000)
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
__kernel void histogram_global(__global const uint* values, __global uint* hist) {
  atom_inc(&hist[values[get_global_id(0)] % 64]);
}
