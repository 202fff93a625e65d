// as_type reinterpretation: float bits as uint, int4 as float4 and back,
// uchar4 as uint, double as ulong where double exists (not here: floats only).
// @kernel reinterpret
// @global 128
// @arg in global float[128] random(121, -100, 100)
// @arg out global uint4[128] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global float[8388608] random(121, -100, 100)
// @bench-arg out global uint4[8388608] zero
__kernel void reinterpret(__global const float* in, __global uint4* out) {
  float f = in[get_global_id(0)];
  uint bits = as_uint(f);
  uchar4 bytes = as_uchar4(bits);
  int4 wide = (int4)((int)bits, -1, 0x3f800000, 5);
  float4 as_f = as_float4(wide);
  out[get_global_id(0)] = (uint4)(bits & 0x807fffffu, as_uint(bytes.wzyx), as_uint(as_f.z * 2.0f), as_uint(-f));
}
