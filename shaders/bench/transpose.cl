// Tiled matrix transpose through a padded __local tile: `input` has `height`
// rows of `width` floats, `output` is its transpose (`width` rows of
// `height`). A TILE x TILE work-group reads a tile row by row, and writes it
// out column by column; the extra column keeps the column reads free of
// bank conflicts.
#define TILE 16

kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose(global const float* restrict input, global float* restrict output, uint width, uint height) {
  local float tile[TILE][TILE + 1];
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const uint x = get_group_id(0) * TILE + lx, y = get_group_id(1) * TILE + ly;
  if (x < width && y < height) tile[ly][lx] = input[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint out_x = get_group_id(1) * TILE + lx, out_y = get_group_id(0) * TILE + ly;
  if (out_x < height && out_y < width) output[out_y * height + out_x] = tile[lx][ly];
}
