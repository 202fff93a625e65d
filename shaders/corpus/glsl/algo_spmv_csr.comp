// GLSL twin of algo_spmv_csr.cl (tools/corpus_bench/twin_side.h): one row per
// invocation, the same loop of gathers.
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer RowPtr { int row_ptr[]; };
layout(set = 0, binding = 1) readonly buffer Cols { int cols[]; };
layout(set = 0, binding = 2) readonly buffer Vals { int vals[]; };
layout(set = 0, binding = 3) readonly buffer X { int x[]; };
layout(set = 0, binding = 4) writeonly buffer Y { int y[]; };

void main() {
  const int row = int(gl_GlobalInvocationID.x);
  int acc = 0;
  for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) acc += vals[k] * x[cols[k]];
  y[row] = acc;
}
