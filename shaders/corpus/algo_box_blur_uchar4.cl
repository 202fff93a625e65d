// 3x3 box blur of an RGBA image stored as uchar4, summing in int4 and
// converting back with convert_uchar4_sat.
// @kernel box_blur
// @global 16,16
// @arg in global uchar4[256] bits(41)
// @arg out global uchar4[256] zero
// @check out exact
// @bench-global 4096,4096
// @bench-arg in global uchar4[16777216] bits(41)
// @bench-arg out global uchar4[16777216] zero
__kernel void box_blur(__global const uchar4* in, __global uchar4* out) {
  const int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0), h = get_global_size(1);
  int4 sum = (int4)(0);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = min(max(x + dx, 0), w - 1), sy = min(max(y + dy, 0), h - 1);
      sum += convert_int4(in[sy * w + sx]);
    }
  out[y * w + x] = convert_uchar4_sat(sum / 9 + (int4)(0, 0, 0, 20));
}
