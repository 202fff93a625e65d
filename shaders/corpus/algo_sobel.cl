// Sobel edge magnitude (|gx| + |gy|, saturated to 255) of a greyscale uchar image.
// @kernel sobel
// @global 32,32
// @arg in global uchar[1024] bits(42)
// @arg out global uchar[1024] zero
// @check out exact
// @bench-skip the image width and height (32) are constants in the code
__kernel void sobel(__global const uchar* in, __global uchar* out) {
  const int x = get_global_id(0), y = get_global_id(1), w = 32;
  if (x == 0 || y == 0 || x == w - 1 || y == 31) {
    out[y * w + x] = 0;
    return;
  }
#define P(dx, dy) ((int)in[(y + (dy)) * w + x + (dx)])
  int gx = -P(-1, -1) - 2 * P(-1, 0) - P(-1, 1) + P(1, -1) + 2 * P(1, 0) + P(1, 1);
  int gy = -P(-1, -1) - 2 * P(0, -1) - P(1, -1) + P(-1, 1) + 2 * P(0, 1) + P(1, 1);
  int magnitude = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
  out[y * w + x] = (uchar)(magnitude > 255 ? 255 : magnitude);
}
