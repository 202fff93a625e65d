// Matrix transpose through a 32x33 __local tile (the padding column keeps
// the column reads off one bank), with 32x8 work-items each moving four rows
// of the tile; width and height need not be multiples of 32 (bounds checks
// on both the load and the store).
// @kernel transpose_tile32
// @global 96,24
// @local 32,8
// @arg odata global uint[5760] zero
// @arg idata global uint[5760] bits(303)
// @arg width int 80
// @arg height int 72
// @check odata exact
// @bench-global 4128,752
// @bench-arg odata global uint[12300000] zero
// @bench-arg idata global uint[12300000] bits(303)
// @bench-arg width int 4100
// @bench-arg height int 3000
#define TILE_DIM 32
#define BLOCK_ROWS 8

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_tile32(__global uint* odata, __global const uint* idata, const int width, const int height) {
  __local uint tile[TILE_DIM][TILE_DIM + 1];
  const int tx = get_local_id(0), ty = get_local_id(1);

  int x = get_group_id(0) * TILE_DIM + tx;
  int y = get_group_id(1) * TILE_DIM + ty;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[ty + j][tx] = idata[(y + j) * width + x];

  barrier(CLK_LOCAL_MEM_FENCE);

  x = get_group_id(1) * TILE_DIM + tx;
  y = get_group_id(0) * TILE_DIM + ty;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width) odata[(y + j) * height + x] = tile[tx][ty + j];
}
