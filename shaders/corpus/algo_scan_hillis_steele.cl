// Inclusive prefix sum of each work-group's slice (Hillis-Steele), with two
// kernel-scope __local buffers swapped through pointers every step.
// @kernel scan_inclusive
// @global 512
// @local 128
// @arg input global int[512] random(10, 0, 100)
// @arg output global int[512] zero
// @check output exact
// @bench-global 16777216
// @bench-arg input global int[16777216] random(10, 0, 100)
// @bench-arg output global int[16777216] zero
#define N 128
__kernel void scan_inclusive(__global const int* input, __global int* output) {
  __local int buffer_a[N];
  __local int buffer_b[N];
  __local int* src = buffer_a;
  __local int* dst = buffer_b;
  const int lid = get_local_id(0);
  src[lid] = input[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < N; offset <<= 1) {
    dst[lid] = lid >= offset ? src[lid] + src[lid - offset] : src[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int* t = src;
    src = dst;
    dst = t;
  }
  output[get_global_id(0)] = src[lid];
}
