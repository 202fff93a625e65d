// TEA block cipher: 32 rounds over uint2 blocks with a 128-bit key passed by value.
// @kernel tea
// @global 256
// @arg blocks global uint2[256] bits(53)
// @arg key uint4 0x01234567,0x89abcdef,0xfedcba98,0x76543210
// @check blocks exact
// @bench-global 4194304
// @bench-arg blocks global uint2[4194304] bits(53)
__kernel void tea(__global uint2* blocks, uint4 key) {
  uint2 v = blocks[get_global_id(0)];
  uint sum = 0;
  const uint delta = 0x9E3779B9u;
  for (int i = 0; i < 32; ++i) {
    sum += delta;
    v.x += ((v.y << 4) + key.x) ^ (v.y + sum) ^ ((v.y >> 5) + key.y);
    v.y += ((v.x << 4) + key.z) ^ (v.x + sum) ^ ((v.x >> 5) + key.w);
  }
  blocks[get_global_id(0)] = v;
}
