// Pointer casts between element types: a uint buffer read as bytes, as
// ushorts and written back through a uchar pointer (little-endian).
// @kernel byte_view
// @global 64
// @arg words global uint[64] bits(80)
// @arg out global uint[64] zero
// @check out exact
// @check words exact
// @bench-global 16777216
// @bench-arg words global uint[16777216] bits(80)
// @bench-arg out global uint[16777216] zero
__kernel void byte_view(__global uint* words, __global uint* out) {
  const int i = get_global_id(0);
  __global uchar* bytes = (__global uchar*)(words + i);
  __global ushort* halves = (__global ushort*)(words + i);
  uint reversed = (uint)bytes[0] << 24 | (uint)bytes[1] << 16 | (uint)bytes[2] << 8 | bytes[3];
  out[i] = reversed ^ halves[1];
  bytes[0] = (uchar)(bytes[0] + 1);
}
