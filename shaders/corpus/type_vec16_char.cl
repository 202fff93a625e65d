// char16: arithmetic with wrap-around, a reversal through .s and the
// even/odd halves.
// @kernel vec16
// @global 64
// @arg in global char16[64] bits(114)
// @arg out global char16[64] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global char16[8388608] bits(114)
// @bench-arg out global char16[8388608] zero
__kernel void vec16(__global const char16* in, __global char16* out) {
  char16 v = in[get_global_id(0)];
  char16 r = v.sfedcba9876543210 + (char16)(1);
  r.even = r.even ^ v.odd;
  out[get_global_id(0)] = r * (char16)(3);
}
