// Separable convolution, the row pass: each work-group loads its row
// segment and an apron of 4 on each side into __local memory.
// @kernel conv_rows
// @global 64,8
// @local 32,1
// @arg in global int[512] random(40, 0, 255)
// @arg out global int[512] zero
// @check out exact
// @bench-global 4096,4096
// @bench-arg in global int[16777216] random(40, 0, 255)
// @bench-arg out global int[16777216] zero
#define R 4
__kernel void conv_rows(__global const int* in, __global int* out) {
  __local int row[32 + 2 * R];
  const int lx = get_local_id(0), x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  row[lx + R] = in[y * w + x];
  if (lx < R) {
    int left = x - R, right = x + 32;
    row[lx] = left >= 0 ? in[y * w + left] : 0;
    row[lx + 32 + R] = right < w ? in[y * w + right] : 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int taps[2 * R + 1] = {1, 2, 3, 4, 5, 4, 3, 2, 1};
  int acc = 0;
  for (int k = 0; k <= 2 * R; ++k) acc += row[lx + k] * taps[k];
  out[y * w + x] = acc;
}
