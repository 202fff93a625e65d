// A program-scope __constant array (a 16-entry table baked into the program).
// @kernel gray_to_binary
// @global 256
// @arg in global uchar[256] iota
// @arg out global uchar[256] zero
// @check out exact
// @bench-global 67108864
// @bench-arg in global uchar[67108864] iota
// @bench-arg out global uchar[67108864] zero
__constant uchar nibble_from_gray[16] = {0, 1, 3, 2, 7, 6, 4, 5, 15, 14, 12, 13, 8, 9, 11, 10};
__kernel void gray_to_binary(__global const uchar* in, __global uchar* out) {
  uchar v = in[get_global_id(0)];
  out[get_global_id(0)] = (uchar)(nibble_from_gray[v >> 4] << 4 | nibble_from_gray[v & 15]);
}
