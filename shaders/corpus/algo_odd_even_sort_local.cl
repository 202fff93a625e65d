// Odd-even transposition sort of 64 shorts per work-group in __local memory
// (64 rounds of compare-exchange between neighbours).
// @kernel odd_even_sort
// @global 128
// @local 32
// @arg data global short[256] random(32, -30000, 30000)
// @check data exact
// @bench-global 2097152
// @bench-arg data global short[4194304] random(32, -30000, 30000)
__kernel void odd_even_sort(__global short* data) {
  __local short s[64];
  const int lid = get_local_id(0);
  const int base = get_group_id(0) * 64;
  s[2 * lid] = data[base + 2 * lid];
  s[2 * lid + 1] = data[base + 2 * lid + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int round = 0; round < 64; ++round) {
    int i = 2 * lid + (round & 1);
    if (i + 1 < 64) {
      short a = s[i], b = s[i + 1];
      if (a > b) {
        s[i] = b;
        s[i + 1] = a;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[base + 2 * lid] = s[2 * lid];
  data[base + 2 * lid + 1] = s[2 * lid + 1];
}
