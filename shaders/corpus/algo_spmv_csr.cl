// Sparse matrix-vector product in CSR form with 4 non-zeros per row
// (row_ptr = 0, 4, 8, ...), random column indices, one row per work-item.
// @kernel spmv
// @global 128
// @arg row_ptr global int[129] iota(0, 4)
// @arg cols global int[512] random(48, 0, 127)
// @arg vals global int[512] random(49, -9, 9)
// @arg x global int[128] random(50, -9, 9)
// @arg y global int[128] zero
// @check y exact
// @bench-global 4194304
// @bench-arg row_ptr global int[4194305] iota(0, 4)
// @bench-arg cols global int[16777216] random(48, 0, 4194303)
// @bench-arg vals global int[16777216] random(49, -9, 9)
// @bench-arg x global int[4194304] random(50, -9, 9)
// @bench-arg y global int[4194304] zero
__kernel void spmv(__global const int* row_ptr, __global const int* cols, __global const int* vals,
                   __global const int* x, __global int* y) {
  const int row = get_global_id(0);
  int acc = 0;
  for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) acc += vals[k] * x[cols[k]];
  y[row] = acc;
}
