// char and uchar arithmetic with the usual promotions: sums that wrap when
// stored, signed division and shifts of negative values.
// @kernel char_arith
// @global 256
// @arg a global char[256] bits(90)
// @arg b global char[256] bits(91)
// @arg out global char4[256] zero
// @arg uout global uchar2[256] zero
// @check out exact
// @check uout exact
// @bench-global 16777216
// @bench-arg a global char[16777216] bits(90)
// @bench-arg b global char[16777216] bits(91)
// @bench-arg out global char4[16777216] zero
// @bench-arg uout global uchar2[16777216] zero
__kernel void char_arith(__global const char* a, __global const char* b, __global char4* out, __global uchar2* uout) {
  const int i = get_global_id(0);
  char x = a[i], y = b[i];
  char d = y == 0 ? 1 : y;
  out[i] = (char4)((char)(x + y), (char)(x * y), (char)(x / d), (char)(x >> 2));
  uchar ux = (uchar)x, uy = (uchar)y;
  uout[i] = (uchar2)((uchar)(ux - uy), (uchar)(ux % (uy | 1)));
}
