// Float reduction in a kernel-scope __local array: each work-item first sums
// a strided slice of the input, then the work-group reduces the partial sums.
// Integer-valued inputs keep every sum exact.
// @kernel reduce_float
// @global 256
// @local 64
// @arg input global float[4096] randint(7, -100, 100)
// @arg partial global float[4] zero
// @arg n uint 4096
// @check partial exact
// @bench-global 65536
// @bench-arg input global float[16777216] randint(7, -100, 100)
// @bench-arg partial global float[1024] zero
// @bench-arg n uint 16777216
#define GROUP 64
__kernel void reduce_float(__global const float* input, __global float* partial, uint n) {
  __local float scratch[GROUP];
  const uint lid = get_local_id(0);
  float sum = 0.0f;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) sum += input[i];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = GROUP / 2; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
