// Bitonic sorting network: each work-group sorts its 256 keys in __local
// memory (128 work-items, two keys each).
// @kernel bitonic_local
// @global 256
// @local 128
// @arg keys global uint[512] bits(30)
// @check keys exact
// @bench-global 2097152
// @bench-arg keys global uint[4194304] bits(30)
__kernel void bitonic_local(__global uint* keys) {
  __local uint s[256];
  const uint lid = get_local_id(0);
  const uint base = get_group_id(0) * 256;
  s[lid] = keys[base + lid];
  s[lid + 128] = keys[base + lid + 128];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint size = 2; size <= 256; size <<= 1) {
    for (uint stride = size >> 1; stride > 0; stride >>= 1) {
      uint pos = 2 * lid - (lid & (stride - 1));
      bool ascending = ((pos & size) == 0);
      uint a = s[pos], b = s[pos + stride];
      if ((a > b) == ascending) {
        s[pos] = b;
        s[pos + stride] = a;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  keys[base + lid] = s[lid];
  keys[base + lid + 128] = s[lid + 128];
}
