// CSR sparse matrix-vector product, the "vector" kernel: 32 work-items
// share a row, each striding over its non-zeros, then a __local tree
// reduction per row (48 non-zeros a row here, so some lanes take two).
// Integer-valued floats keep the sums exact.
// @kernel spmv_csr_vector
// @global 1024
// @local 128
// @arg row_ptr global int[33] iota(0, 48)
// @arg col_idx global int[1536] random(309, 0, 255)
// @arg vals global float[1536] randint(310, -8, 8)
// @arg x global float[256] randint(311, -8, 8)
// @arg y global float[32] zero
// @arg nrows int 32
// @check y exact
// @bench-global 8388608
// @bench-arg row_ptr global int[262145] iota(0, 48)
// @bench-arg col_idx global int[12582912] random(309, 0, 262143)
// @bench-arg vals global float[12582912] randint(310, -8, 8)
// @bench-arg x global float[262144] randint(311, -8, 8)
// @bench-arg y global float[262144] zero
// @bench-arg nrows int 262144
#define LANES 32
#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void spmv_csr_vector(__global const int* row_ptr, __global const int* col_idx, __global const float* vals,
                     __global const float* x, __global float* y, const int nrows) {
  __local float partial[WG];
  const int lid = get_local_id(0);
  const int lane = lid & (LANES - 1);
  const int row = get_global_id(0) / LANES;

  float sum = 0.0f;
  if (row < nrows) {
    const int start = row_ptr[row], end = row_ptr[row + 1];
    for (int k = start + lane; k < end; k += LANES) sum += vals[k] * x[col_idx[k]];
  }
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int s = LANES / 2; s > 0; s >>= 1) {
    if (lane < s) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && row < nrows) y[row] = partial[lid];
}
