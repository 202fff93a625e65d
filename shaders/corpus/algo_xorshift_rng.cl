// A per-work-item xorshift128+ generator on ulong2 state, advanced 50 times,
// writing the last output and the new state (a Monte Carlo kernel's core).
// @kernel xorshift
// @global 256
// @arg state global ulong2[256] bits(51)
// @arg out global ulong[256] zero
// @check state exact
// @check out exact
// @bench-global 4194304
// @bench-arg state global ulong2[4194304] bits(51)
// @bench-arg out global ulong[4194304] zero
__kernel void xorshift(__global ulong2* state, __global ulong* out) {
  const size_t i = get_global_id(0);
  ulong s0 = state[i].x, s1 = state[i].y | 1;
  ulong result = 0;
  for (int k = 0; k < 50; ++k) {
    ulong x = s0, y = s1;
    s0 = y;
    x ^= x << 23;
    s1 = x ^ y ^ (x >> 17) ^ (y >> 26);
    result = s1 + y;
  }
  state[i] = (ulong2)(s0, s1);
  out[i] = result;
}
