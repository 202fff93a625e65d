// Tiled SGEMM, C = A * B for n x n row-major matrices (n a multiple of TILE):
// each TILE x TILE work-group stages a tile of A and a tile of B in __local
// memory per step, one C element per work-item, two barriers per step.
#define TILE 16

kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void sgemm(global const float* restrict a, global const float* restrict b, global float* restrict c, uint n) {
  local float tile_a[TILE][TILE];
  local float tile_b[TILE][TILE];
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const uint col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (uint t = 0; t < n; t += TILE) {
    tile_a[ly][lx] = a[row * n + t + lx];
    tile_b[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; ++k) sum += tile_a[ly][k] * tile_b[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}
