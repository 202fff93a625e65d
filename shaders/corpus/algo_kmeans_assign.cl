// k-means assignment step: the nearest of 8 centroids (in __constant
// memory) for each 2-D point, by squared distance; integer-valued
// coordinates keep the distances exact, ties go to the lower index.
// @kernel kmeans_assign
// @global 256
// @arg points global float2[256] randint(62, -50, 50)
// @arg centroids constant float2[8] randint(63, -50, 50)
// @arg labels global int[256] zero
// @check labels exact
// @bench-global 16777216
// @bench-arg points global float2[16777216] randint(62, -50, 50)
// @bench-arg labels global int[16777216] zero
__kernel void kmeans_assign(__global const float2* points, __constant float2* centroids, __global int* labels) {
  const float2 p = points[get_global_id(0)];
  int best = 0;
  float best_d = INFINITY;
  for (int c = 0; c < 8; ++c) {
    float2 d = p - centroids[c];
    float dist = d.x * d.x + d.y * d.y;
    if (dist < best_d) {
      best_d = dist;
      best = c;
    }
  }
  labels[get_global_id(0)] = best;
}
