// Unsigned arithmetic that wraps (defined), hash mixing with multiplies
// (FNV-1a and a murmur finaliser), on uint and ulong.
// @kernel hashes
// @global 256
// @arg in global uint4[256] bits(278)
// @arg out global ulong2[256] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global uint4[8388608] bits(278)
// @bench-arg out global ulong2[8388608] zero
__kernel void hashes(__global const uint4* in, __global ulong2* out) {
  uint4 v = in[get_global_id(0)];
  uint h = 2166136261u;
  for (int k = 0; k < 4; ++k) {
    uint w = k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
    for (int b = 0; b < 4; ++b) {
      h ^= (w >> (8 * b)) & 0xff;
      h *= 16777619u;
    }
  }
  ulong m = ((ulong)v.x << 32) | v.y;
  m ^= m >> 33;
  m *= 0xff51afd7ed558ccdUL;
  m ^= m >> 33;
  m *= 0xc4ceb9fe1a85ec53UL;
  m ^= m >> 33;
  out[get_global_id(0)] = (ulong2)(h, m);
}
