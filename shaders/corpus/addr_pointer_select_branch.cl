// A global pointer chosen by a branch on data (a phi of two buffer
// arguments), then used in a loop.
// @kernel choose_source
// @global 128
// @arg a global int[128] random(81, 0, 1000)
// @arg b global int[128] random(82, 0, 1000)
// @arg out global int[128] zero
// @check out exact
// @bench-global 16777216
// @bench-arg a global int[16777216] random(81, 0, 1000)
// @bench-arg b global int[16777216] random(82, 0, 1000)
// @bench-arg out global int[16777216] zero
__kernel void choose_source(__global const int* a, __global const int* b, __global int* out) {
  const int i = get_global_id(0);
  __global const int* src;
  if (a[i] > b[i]) src = a;
  else src = b;
  int sum = 0;
  for (int k = 0; k < 4; ++k) sum += src[(i + k) % 128];
  out[i] = sum;
}
