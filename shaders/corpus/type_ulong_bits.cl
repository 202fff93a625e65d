// ulong bit manipulation: a 64-bit population count and bit reversal by
// hand, with masks and loops.
// @kernel ulong_bits
// @global 128
// @arg in global ulong[128] bits(100)
// @arg out global ulong2[128] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global ulong[8388608] bits(100)
// @bench-arg out global ulong2[8388608] zero
__kernel void ulong_bits(__global const ulong* in, __global ulong2* out) {
  ulong v = in[get_global_id(0)];
  ulong count = v - ((v >> 1) & 0x5555555555555555UL);
  count = (count & 0x3333333333333333UL) + ((count >> 2) & 0x3333333333333333UL);
  count = (((count + (count >> 4)) & 0x0F0F0F0F0F0F0F0FUL) * 0x0101010101010101UL) >> 56;
  ulong r = 0;
  for (int b = 0; b < 64; ++b) r |= ((v >> b) & 1UL) << (63 - b);
  out[get_global_id(0)] = (ulong2)(count, r);
}
