// One Jacobi sweep of the 2-D five-point Laplace stencil through a 16x16
// __local tile with a one-cell halo: the edge work-items of the tile load
// the halo, coordinates clamp at the grid's edges (replicated boundary), and
// the grid need not be a multiple of the tile.
// @kernel jacobi5_tile
// @global 48,32
// @local 16,16
// @arg u global float[960] randint(312, -64, 64)
// @arg u_new global float[960] zero
// @arg nx int 40
// @arg ny int 24
// @check u_new exact
// @bench-global 4112,4000
// @bench-arg u global float[16400000] randint(312, -64, 64)
// @bench-arg u_new global float[16400000] zero
// @bench-arg nx int 4100
// @bench-arg ny int 4000
#define TX 16
#define TY 16

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void jacobi5_tile(__global const float* u, __global float* u_new, const int nx, const int ny) {
  __local float t[TY + 2][TX + 2];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int gx = get_global_id(0), gy = get_global_id(1);
  const int cx = min(gx, nx - 1), cy = min(gy, ny - 1);

  t[ly + 1][lx + 1] = u[cy * nx + cx];
  if (lx == 0) t[ly + 1][0] = u[cy * nx + max(cx - 1, 0)];
  if (lx == TX - 1) t[ly + 1][TX + 1] = u[cy * nx + min(cx + 1, nx - 1)];
  if (ly == 0) t[0][lx + 1] = u[max(cy - 1, 0) * nx + cx];
  if (ly == TY - 1) t[TY + 1][lx + 1] = u[min(cy + 1, ny - 1) * nx + cx];
  barrier(CLK_LOCAL_MEM_FENCE);

  if (gx < nx && gy < ny)
    u_new[gy * nx + gx] = 0.25f * (t[ly][lx + 1] + t[ly + 2][lx + 1] + t[ly + 1][lx] + t[ly + 1][lx + 2]);
}
