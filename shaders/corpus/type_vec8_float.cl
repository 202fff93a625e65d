// float8 arithmetic and a horizontal sum over the halves.
// @kernel vec8f
// @global 64
// @arg in global float8[64] randint(115, -100, 100)
// @arg out global float8[64] zero
// @arg sums global float[64] zero
// @check out exact
// @check sums exact
// @bench-global 2097152
// @bench-arg in global float8[2097152] randint(115, -100, 100)
// @bench-arg out global float8[2097152] zero
// @bench-arg sums global float[2097152] zero
__kernel void vec8f(__global const float8* in, __global float8* out, __global float* sums) {
  float8 v = in[get_global_id(0)];
  float4 h = v.lo + v.hi;
  float2 q = h.lo + h.hi;
  sums[get_global_id(0)] = q.x + q.y;
  out[get_global_id(0)] = v * 0.5f - v.s01234567;
}
