// Scalar and vector arguments of many types passed by value (char, short,
// long, float, double-free), their sum written per type.
// @kernel scalar_args
// @global 4
// @arg c char -5
// @arg uc uchar 250
// @arg s short -30000
// @arg us ushort 60000
// @arg i int -2000000000
// @arg l long -9000000000000
// @arg ul ulong 0xfedcba9876543210
// @arg f float 2.5
// @arg v int4 1,-2,3,-4
// @arg fv float2 0.25,-8
// @arg out global long[32] zero
// @check out exact
// @bench-global 2097152
// @bench-arg out global long[16777216] zero
__kernel void scalar_args(char c, uchar uc, short s, ushort us, int i, long l, ulong ul, float f, int4 v, float2 fv,
                          __global long* out) {
  const int g = get_global_id(0);
  __global long* o = out + 8 * g;
  o[0] = c * (g + 1);
  o[1] = uc + g;
  o[2] = s - g;
  o[3] = us;
  o[4] = (long)i * 3;
  o[5] = l + g;
  o[6] = (long)(ul >> g);
  o[7] = (long)(f * 4.0f) + v.x + v.y * 10 + v.z * 100 + v.w * 1000 + (long)(fv.x * 4.0f) + (long)fv.y;
}
