// Bitwise CRC-32 (polynomial 0xEDB88320) of a 64-byte block per work-item.
// @kernel crc32
// @global 64
// @arg data global uchar[4096] bits(52)
// @arg crc global uint[64] zero
// @check crc exact
// @bench-global 1048576
// @bench-arg data global uchar[67108864] bits(52)
// @bench-arg crc global uint[1048576] zero
__kernel void crc32(__global const uchar* data, __global uint* crc) {
  __global const uchar* block = data + get_global_id(0) * 64;
  uint c = 0xFFFFFFFFu;
  for (int i = 0; i < 64; ++i) {
    c ^= block[i];
    for (int b = 0; b < 8; ++b) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  crc[get_global_id(0)] = ~c;
}
