// Row-wise softmax, one work-group per row: a __local max reduction, then a
// __local sum of exp(x - max), then every element scaled by the sum's
// reciprocal; rows longer than the work-group are walked with a stride.
// exp is 3 ulp each side and the sums add those errors up: compared at 32 ulp.
// @kernel softmax_rows
// @global 1024
// @local 128
// @arg x global float[2400] random(322, -8, 8)
// @arg y global float[2400] zero
// @arg cols int 300
// @check y ulp 32
// @bench-global 2097152
// @bench-arg x global float[16384000] random(322, -8, 8)
// @bench-arg y global float[16384000] zero
// @bench-arg cols int 1000
#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void softmax_rows(__global const float* x, __global float* y, const int cols) {
  __local float red[WG];
  const int lid = get_local_id(0);
  __global const float* xr = x + (size_t)get_group_id(0) * cols;
  __global float* yr = y + (size_t)get_group_id(0) * cols;

  float m = -INFINITY;
  for (int c = lid; c < cols; c += WG) m = fmax(m, xr[c]);
  red[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) red[lid] = fmax(red[lid], red[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  m = red[0];
  barrier(CLK_LOCAL_MEM_FENCE);

  float sum = 0.0f;
  for (int c = lid; c < cols; c += WG) sum += exp(xr[c] - m);
  red[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) red[lid] += red[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float inv = 1.0f / red[0];

  for (int c = lid; c < cols; c += WG) yr[c] = exp(xr[c] - m) * inv;
}
