// Prefix sums with ping-pong buffers that are __local pointer arguments,
// chosen by a phi in the loop (the pointer changes every iteration).
// @kernel scan_pingpong
// @global 256
// @local 64
// @arg input global float[256] randint(12, -16, 16)
// @arg output global float[256] zero
// @arg ping local float[64]
// @arg pong local float[64]
// @check output exact
// @bench-global 16777216
// @bench-arg input global float[16777216] randint(12, -16, 16)
// @bench-arg output global float[16777216] zero
__kernel void scan_pingpong(__global const float* input, __global float* output, __local float* ping,
                            __local float* pong) {
  const uint lid = get_local_id(0);
  const uint n = get_local_size(0);
  __local float* in = ping;
  __local float* out = pong;
  in[lid] = input[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < n; offset *= 2) {
    float v = in[lid];
    if (lid >= offset) v += in[lid - offset];
    out[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float* swap = in;
    in = out;
    out = swap;
  }
  output[get_global_id(0)] = in[lid];
}
