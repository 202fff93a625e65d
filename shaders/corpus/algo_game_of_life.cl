// One generation of Conway's Game of Life on a 32x32 torus of uchar cells.
// @kernel life
// @global 32,32
// @local 8,8
// @arg in global uchar[1024] random(54, 0, 1)
// @arg out global uchar[1024] zero
// @check out exact
// @bench-skip the torus is 32x32 by constants in the code (w = 32, h = 32)
__kernel void life(__global const uchar* in, __global uchar* out) {
  const int x = get_global_id(0), y = get_global_id(1), w = 32, h = 32;
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx || dy) n += in[((y + dy + h) % h) * w + (x + dx + w) % w];
  uchar alive = in[y * w + x];
  out[y * w + x] = (n == 3 || (alive && n == 2)) ? 1 : 0;
}
