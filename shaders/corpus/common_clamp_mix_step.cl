// Common functions on floats: clamp, mix (a + (b - a) * t), step,
// smoothstep, sign, degrees, radians, min and max. mix and smoothstep
// have absolute bounds in the full profile (1e-3 and 1e-5); degrees and
// radians 2 ulp each side.
// @kernel common_fns
// @global 256
// @arg x global float4[256] random(180, -2, 2)
// @arg y global float4[256] random(181, -2, 2)
// @arg out global float4[256] zero
// @arg more global float4[256] zero
// @check out abs 1e-5
// @check more ulp 4
// @bench-global 4194304
// @bench-arg x global float4[4194304] random(180, -2, 2)
// @bench-arg y global float4[4194304] random(181, -2, 2)
// @bench-arg out global float4[4194304] zero
// @bench-arg more global float4[4194304] zero
__kernel void common_fns(__global const float4* x, __global const float4* y, __global float4* out,
                         __global float4* more) {
  const int i = get_global_id(0);
  float4 a = x[i], b = y[i];
  out[i] = (float4)(clamp(a.x, -1.0f, 1.0f), mix(a.y, b.y, 0.25f), step(a.z, b.z), smoothstep(-1.0f, 1.5f, a.w));
  more[i] = (float4)(sign(a.x), degrees(a.y), radians(b.z), max(a.w, b.w) - min(a.w, b.w));
}
