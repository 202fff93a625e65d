// Colour-space conversion of an RGBA8 image to YCbCr (BT.601, studio range)
// in 8.8 fixed point, alpha kept, over a 2-D range with a row pitch wider
// than the image and bounds checks at the right and bottom edges; uchar4
// loads, int4 arithmetic and convert_uchar4_sat on the way out.
// @kernel rgba_to_ycbcr
// @global 48,32
// @local 16,8
// @arg src global uchar4[1536] bits(320)
// @arg dst global uchar4[1536] zero
// @arg width int 45
// @arg height int 30
// @arg pitch int 48
// @check dst exact
// @bench-global 4096,4096
// @bench-arg src global uchar4[16777216] bits(320)
// @bench-arg dst global uchar4[16777216] zero
// @bench-arg width int 4000
// @bench-arg height int 4090
// @bench-arg pitch int 4096
__kernel void rgba_to_ycbcr(__global const uchar4* src, __global uchar4* dst, const int width, const int height,
                            const int pitch) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int4 c = convert_int4(src[y * pitch + x]);
  const int luma = ((66 * c.x + 129 * c.y + 25 * c.z + 128) >> 8) + 16;
  // The chroma offset (128 << 8) is added before the shift: the sums stay positive.
  const int cb = (-38 * c.x - 74 * c.y + 112 * c.z + 128 + (128 << 8)) >> 8;
  const int cr = (112 * c.x - 94 * c.y - 18 * c.z + 128 + (128 << 8)) >> 8;
  dst[y * pitch + x] = convert_uchar4_sat((int4)(luma, cb, cr, c.w));
}
