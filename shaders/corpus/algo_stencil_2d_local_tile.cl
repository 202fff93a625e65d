// 2-D nine-point stencil (integer) with a 2-D __local tile and a one-cell
// halo loaded cooperatively; out-of-range neighbours read as zero.
// @kernel blur3x3
// @global 32,32
// @local 8,8
// @arg in global int[1024] random(16, 0, 255)
// @arg out global int[1024] zero
// @check out exact
// @bench-skip the grid width (W = 32) is #defined in the code
#define T 8
#define W 32
__kernel void blur3x3(__global const int* in, __global int* out) {
  __local int tile[T + 2][T + 2];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int gx0 = get_group_id(0) * T - 1, gy0 = get_group_id(1) * T - 1;
  for (int j = ly; j < T + 2; j += T)
    for (int i = lx; i < T + 2; i += T) {
      int gx = gx0 + i, gy = gy0 + j;
      tile[j][i] = (gx >= 0 && gx < W && gy >= 0 && gy < W) ? in[gy * W + gx] : 0;
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx) sum += tile[ly + dy][lx + dx] * (dx == 1 && dy == 1 ? 4 : (dx == 1 || dy == 1) ? 2 : 1);
  out[get_global_id(1) * W + get_global_id(0)] = sum / 16;
}
