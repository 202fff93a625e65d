// Two __local pointer arguments of different element types (int and
// ushort), sized by the host, used as a transpose buffer and a counter table.
// @kernel local_args
// @global 256
// @local 64
// @arg in global int[256] random(74, 0, 1000)
// @arg out global int[256] zero
// @arg flipped local int[64]
// @arg small local ushort[64]
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(74, 0, 1000)
// @bench-arg out global int[16777216] zero
__kernel void local_args(__global const int* in, __global int* out, __local int* flipped, __local ushort* small) {
  const int lid = get_local_id(0), n = get_local_size(0);
  flipped[n - 1 - lid] = in[get_global_id(0)];
  small[lid] = (ushort)(lid * 1000);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = flipped[lid] + small[(lid * 7) % n];
}
