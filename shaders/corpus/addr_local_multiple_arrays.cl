// Several kernel-scope __local arrays of different types at once (uint,
// short, float2, char), each written and read across a barrier.
// @kernel many_locals
// @global 128
// @local 64
// @arg in global int[128] random(73, -100, 100)
// @arg out global int[128] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(73, -100, 100)
// @bench-arg out global int[16777216] zero
__kernel void many_locals(__global const int* in, __global int* out) {
  __local uint a[64];
  __local short b[64];
  __local float2 c[32];
  __local char d[64];
  const int lid = get_local_id(0);
  const int v = in[get_global_id(0)];
  a[lid] = (uint)(v * 3);
  b[63 - lid] = (short)(v - 7);
  if (lid < 32) c[lid] = (float2)((float)v, (float)-v);
  d[lid] = (char)(v & 0x7f);
  barrier(CLK_LOCAL_MEM_FENCE);
  int r = (int)a[(lid + 1) & 63] + b[lid] + (int)c[lid & 31].y + d[63 - lid];
  out[get_global_id(0)] = r;
}
