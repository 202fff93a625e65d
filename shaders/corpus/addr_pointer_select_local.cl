// A __local pointer chosen at run time from two kernel-scope __local arrays
// (the ternary becomes a select of pointers).
// @kernel choose_local
// @global 64
// @local 32
// @arg in global int[64] random(83, -100, 100)
// @arg out global int[64] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(83, -100, 100)
// @bench-arg out global int[16777216] zero
__kernel void choose_local(__global const int* in, __global int* out) {
  __local int evens[32];
  __local int odds[32];
  const int lid = get_local_id(0);
  evens[lid] = in[get_global_id(0)] * 2;
  odds[lid] = in[get_global_id(0)] * 2 + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* src = (in[get_global_id(0)] & 1) ? odds : evens;
  out[get_global_id(0)] = src[31 - lid] + src[lid];
}
