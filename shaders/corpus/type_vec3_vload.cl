// vload3/vstore3 on packed int data (12-byte stride), unlike int3 pointers.
// @kernel vec3_packed
// @global 64
// @arg in global int[192] random(112, -100, 100)
// @arg out global int[192] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global int[25165824] random(112, -100, 100)
// @bench-arg out global int[25165824] zero
__kernel void vec3_packed(__global const int* in, __global int* out) {
  const int i = get_global_id(0);
  int3 v = vload3(i, in);
  vstore3(v.zxy * (int3)(1, 2, 3), i, out);
}
