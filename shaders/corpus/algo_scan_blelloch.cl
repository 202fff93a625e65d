// Work-efficient exclusive scan (Blelloch: up-sweep, clear, down-sweep) of
// 2 elements per work-item in a __local pointer argument; also writes each
// work-group's total.
// @kernel scan_exclusive
// @global 256
// @local 64
// @arg input global uint[512] random(11, 0, 1000)
// @arg output global uint[512] zero
// @arg sums global uint[4] zero
// @arg temp local uint[128]
// @check output exact
// @check sums exact
// @bench-global 8388608
// @bench-arg input global uint[16777216] random(11, 0, 1000)
// @bench-arg output global uint[16777216] zero
// @bench-arg sums global uint[131072] zero
__kernel void scan_exclusive(__global const uint* input, __global uint* output, __global uint* sums,
                             __local uint* temp) {
  const int lid = get_local_id(0);
  const int n = 2 * get_local_size(0);
  const int base = get_group_id(0) * n;
  temp[2 * lid] = input[base + 2 * lid];
  temp[2 * lid + 1] = input[base + 2 * lid + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1;
      int bi = offset * (2 * lid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset <<= 1;
  }
  if (lid == 0) {
    sums[get_group_id(0)] = temp[n - 1];
    temp[n - 1] = 0;
  }
  for (int d = 1; d < n; d <<= 1) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1;
      int bi = offset * (2 * lid + 2) - 1;
      uint t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  output[base + 2 * lid] = temp[2 * lid];
  output[base + 2 * lid + 1] = temp[2 * lid + 1];
}
