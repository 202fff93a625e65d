// vload_half4 / vstore_half4 and the rounding-mode variants of
// vstore_half (rte, rtz, rtp, rtn) on values that need rounding.
// @kernel half_vectors
// @global 64
// @arg in global half[256] random(131, -1000, 1000)
// @arg scale float 1.0009765625
// @arg out global half[1280] zero
// @check out exact
// @bench-skip the five stores' offsets (i + 64 k) assume 64 work-items: a larger range makes them overlap
__kernel void half_vectors(__global const half* in, float scale, __global half* out) {
  const int i = get_global_id(0);
  float4 v = vload_half4(i, in) * scale + (float4)(0.0001f);
  vstore_half4(v, i, out);
  vstore_half4_rte(v, i + 64, out);
  vstore_half4_rtz(v, i + 128, out);
  vstore_half4_rtp(v, i + 192, out);
  vstore_half4_rtn(v, i + 256, out);
}
