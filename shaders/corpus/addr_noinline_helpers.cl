// Pointers to global, local and private memory passed to helper functions
// that are kept out of line.
// @kernel helpers
// @global 128
// @local 32
// @arg in global int[128] random(84, -100, 100)
// @arg out global int[128] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(84, -100, 100)
// @bench-arg out global int[16777216] zero
__attribute__((noinline)) int sum_global(__global const int* p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
__attribute__((noinline)) void fill_local(__local int* p, int lid, int v) { p[lid] = v * v; }
__attribute__((noinline)) int max_private(const int* p, int n) {
  int m = p[0];
  for (int i = 1; i < n; ++i) m = p[i] > m ? p[i] : m;
  return m;
}
__kernel void helpers(__global const int* in, __global int* out) {
  __local int squares[32];
  const int lid = get_local_id(0), gid = get_global_id(0);
  fill_local(squares, lid, in[gid]);
  barrier(CLK_LOCAL_MEM_FENCE);
  int window[4] = {in[gid], in[(gid + 1) % 128], in[(gid + 2) % 128], squares[31 - lid]};
  out[gid] = sum_global(in + (gid & ~7), 8) + max_private(window, 4);
}
