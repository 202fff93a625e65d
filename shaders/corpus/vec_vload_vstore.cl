// vload4/vstore4 and vload2/vstore8 at element offsets of scalar pointers,
// including bases that are not multiples of the vector size (pointer + 1, + 129).
// @kernel vload_vstore
// @global 32
// @arg in global float[264] randint(130, -100, 100)
// @arg out global float[320] zero
// @check out exact
// @bench-skip the offsets 129 and 256 assume 32 work-items: a larger range makes the two stores overlap
__kernel void vload_vstore(__global const float* in, __global float* out) {
  const int i = get_global_id(0);
  float4 a = vload4(i, in);
  float4 b = vload4(i, in + 1);
  float2 c = vload2(i, in + 129);
  float8 d = (float8)(a + b, (float4)(c, c.yx));
  vstore8(d, i, out);
  vstore2(c * 2.0f, i, out + 256);
}
