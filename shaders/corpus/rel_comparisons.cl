// isequal, isnotequal, isgreater, isless, islessgreater, isordered and
// isunordered (false for NaN operands except where the name says so).
// @kernel comparisons
// @global 64
// @arg a global float4[64] randint(211, -3, 3)
// @arg b global float4[64] randint(212, -3, 3)
// @arg out global int4[128] zero
// @check out exact
// @bench-global 4194304
// @bench-arg a global float4[4194304] randint(211, -3, 3)
// @bench-arg b global float4[4194304] randint(212, -3, 3)
// @bench-arg out global int4[8388608] zero
__kernel void comparisons(__global const float4* a, __global const float4* b, __global int4* out) {
  const int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  if (i % 4 == 0) x.y = NAN;
  out[2 * i] = (int4)(isequal(x.x, y.x), isnotequal(x.y, y.y), isgreater(x.z, y.z), isgreaterequal(x.w, y.w));
  out[2 * i + 1] = (int4)(isless(x.y, y.x), islessgreater(x.x, y.y), isordered(x.y, y.z), isunordered(x.y, y.w));
}
