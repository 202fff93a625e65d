// GLSL twin of algo_gemv_local_reduce.cl (tools/corpus_bench/twin_side.h):
// one work-group of 32 per row, strided partial dot products, a shared
// reduction.
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer M { int m[]; };
layout(set = 0, binding = 1) readonly buffer X { int x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { int y[]; };
shared int partial[32];

void main() {
  const int row = int(gl_WorkGroupID.x), lid = int(gl_LocalInvocationID.x);
  int acc = 0;
  for (int k = lid; k < 256; k += 32) acc += m[row * 256 + k] * x[k];
  partial[lid] = acc;
  barrier();
  for (int s = 16; s > 0; s >>= 1) {
    if (lid < s) partial[lid] += partial[lid + s];
    barrier();
  }
  if (lid == 0) y[row] = partial[0];
}
