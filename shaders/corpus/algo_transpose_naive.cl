// Naive matrix transpose of a 48x32 matrix of uints.
// @kernel transpose
// @global 48,32
// @arg in global uint[1536] bits(26)
// @arg out global uint[1536] zero
// @arg width uint 48
// @arg height uint 32
// @check out exact
// @bench-global 4096,4096
// @bench-arg in global uint[16777216] bits(26)
// @bench-arg out global uint[16777216] zero
// @bench-arg width uint 4096
// @bench-arg height uint 4096
__kernel void transpose(__global const uint* in, __global uint* out, uint width, uint height) {
  const uint x = get_global_id(0), y = get_global_id(1);
  out[x * height + y] = in[y * width + x];
}
