// Philox4x32-10 counter-based random numbers (Random123): ten rounds of
// mul_hi/multiply/xor on a 128-bit counter with a key bumped by the Weyl
// constants each round; each work-item writes its four raw words and four
// uniform floats in [0, 1) built from their top 24 bits (exact).
// @kernel philox_uniform
// @global 256
// @arg raw global uint4[256] zero
// @arg unit_floats global float4[256] zero
// @arg key uint2 0x243f6a88,0x85a308d3
// @arg counter_hi uint 7
// @check raw exact
// @check unit_floats exact
// @bench-global 4194304
// @bench-arg raw global uint4[4194304] zero
// @bench-arg unit_floats global float4[4194304] zero
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

uint4 philox_round(uint4 ctr, uint2 key) {
  const uint hi0 = mul_hi(PHILOX_M0, ctr.x), lo0 = PHILOX_M0 * ctr.x;
  const uint hi1 = mul_hi(PHILOX_M1, ctr.z), lo1 = PHILOX_M1 * ctr.z;
  return (uint4)(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
}

__kernel void philox_uniform(__global uint4* raw, __global float4* unit_floats, const uint2 key, const uint counter_hi) {
  const uint i = get_global_id(0);
  uint4 ctr = (uint4)(i, 0u, counter_hi, 0u);
  uint2 k = key;
  for (int r = 0; r < 10; ++r) {
    ctr = philox_round(ctr, k);
    k += (uint2)(PHILOX_W0, PHILOX_W1);
  }
  raw[i] = ctr;
  unit_floats[i] = convert_float4(ctr >> 8) * (1.0f / 16777216.0f);
}
