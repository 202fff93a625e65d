// One relaxation step (through vertex k) of Floyd-Warshall on a 32-vertex
// distance matrix.
// @kernel floyd_step
// @global 32,32
// @arg dist global int[1024] random(55, 1, 1000)
// @arg out global int[1024] zero
// @arg k int 7
// @check out exact
// @bench-skip the vertex count (n = 32) is a constant in the code
__kernel void floyd_step(__global const int* dist, __global int* out, int k) {
  const int i = get_global_id(1), j = get_global_id(0), n = 32;
  int direct = dist[i * n + j];
  int through = dist[i * n + k] + dist[k * n + j];
  out[i * n + j] = through < direct ? through : direct;
}
