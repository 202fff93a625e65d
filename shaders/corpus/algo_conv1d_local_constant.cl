// 1-D convolution with a 17-tap filter in a __constant buffer argument: each
// work-group stages its block of the signal plus an 8-sample apron on each
// side in __local memory (zero beyond the signal's ends), then every
// work-item reads its 17 neighbours from the tile.
// @kernel conv1d_tiled
// @global 1024
// @local 128
// @arg in global float[1000] randint(313, -16, 16)
// @arg taps constant float[17] randint(314, -4, 4)
// @arg out global float[1000] zero
// @arg n int 1000
// @check out exact
// @bench-global 16777088
// @bench-arg in global float[16777000] randint(313, -16, 16)
// @bench-arg out global float[16777000] zero
// @bench-arg n int 16777000
#define RADIUS 8
#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void conv1d_tiled(__global const float* in, __constant float* taps, __global float* out, const int n) {
  __local float tile[WG + 2 * RADIUS];
  const int gid = get_global_id(0), lid = get_local_id(0);
  const int first = get_group_id(0) * WG - RADIUS;

  for (int i = lid; i < WG + 2 * RADIUS; i += WG) {
    const int src = first + i;
    tile[i] = (src >= 0 && src < n) ? in[src] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  if (gid < n) {
    float acc = 0.0f;
    for (int k = 0; k <= 2 * RADIUS; ++k) acc += taps[k] * tile[lid + k];
    out[gid] = acc;
  }
}
