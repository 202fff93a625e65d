// Transpose through a padded __local tile (TILE+1 columns, the usual
// bank-conflict avoidance), so that both the reads and the writes of global
// memory are along rows.
// @kernel transpose_tiled
// @global 64,32
// @local 16,16
// @arg in global float[2048] random(27, -1, 1)
// @arg out global float[2048] zero
// @arg width int 64
// @arg height int 32
// @check out exact
// @bench-global 4096,4096
// @bench-arg in global float[16777216] random(27, -1, 1)
// @bench-arg out global float[16777216] zero
// @bench-arg width int 4096
// @bench-arg height int 4096
#define TILE 16
__kernel void transpose_tiled(__global const float* in, __global float* out, int width, int height) {
  __local float tile[TILE][TILE + 1];
  int x = get_group_id(0) * TILE + get_local_id(0);
  int y = get_group_id(1) * TILE + get_local_id(1);
  tile[get_local_id(1)][get_local_id(0)] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TILE + get_local_id(0);
  y = get_group_id(0) * TILE + get_local_id(1);
  out[y * height + x] = tile[get_local_id(0)][get_local_id(1)];
}
