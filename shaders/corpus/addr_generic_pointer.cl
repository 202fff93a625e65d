// OpenCL C 3.0 generic address space: one helper with an unqualified
// pointer parameter called with global, local and private pointers (clang
// infers each call's address space after inlining).
// @kernel generic_helper
// @std CL3.0
// @requires __opencl_c_generic_address_space
// @global 64
// @local 16
// @arg in global int[64] random(85, -100, 100)
// @arg out global int[64] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(85, -100, 100)
// @bench-arg out global int[16777216] zero
int twice(int* p) { return 2 * *p; }
__kernel void generic_helper(__global int* in, __global int* out) {
  __local int shared[16];
  int mine = in[get_global_id(0)] + 1;
  shared[get_local_id(0)] = mine * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = twice(&in[get_global_id(0)]) + twice(&shared[15 - get_local_id(0)]) + twice(&mine);
}
