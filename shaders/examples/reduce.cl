// Work-group tree reduction through __local memory.
//
// Each work-group sums its slice of `input` into partial_sums[group id]. The
// tree works for any work-group size, power of two or not, and for the
// smaller edge group of a non-uniform ND-range: a work-item adds its partner
// `stride` away only when that partner exists.
__kernel void reduce(__global const float* input,
                     __global float* partial_sums,
                     __local float* scratch,
                     uint n) {
  const uint lid = get_local_id(0);
  const uint gid = get_global_id(0);
  const uint size = get_local_size(0);

  scratch[lid] = gid < n ? input[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint stride = 1; stride < size; stride <<= 1) {
    if (lid % (2 * stride) == 0 && lid + stride < size)
      scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (lid == 0)
    partial_sums[get_group_id(0)] = scratch[0];
}
