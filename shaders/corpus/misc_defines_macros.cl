// Build options: -D macros from the header decide the block size and the
// operation, as host programs commonly specialise kernels.
// @kernel specialised
// @define BLOCK=8 OP(a,b)=((a)*3+(b)) USE_BIAS
// @global 64
// @arg in global int[512] random(275, -100, 100)
// @arg out global int[64] zero
// @check out exact
// @bench-global 4194304
// @bench-arg in global int[33554432] random(275, -100, 100)
// @bench-arg out global int[4194304] zero
#ifndef BLOCK
#error BLOCK must be defined
#endif
__kernel void specialised(__global const int* in, __global int* out) {
  int acc = 0;
  for (int k = 0; k < BLOCK; ++k) acc = OP(acc, in[get_global_id(0) * BLOCK + k]);
#ifdef USE_BIAS
  acc += 1000;
#endif
  out[get_global_id(0)] = acc;
}
