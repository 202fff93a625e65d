// SGEMM, C = alpha * A * B + beta * C (row-major, M x K times K x N), with
// 16x16 __local tiles of A and B; the tiles are zero-padded where they
// cross the matrix edges, so M, N and K need not be multiples of 16.
// Integer-valued inputs and alpha, beta keep every sum exact.
// @kernel sgemm_tile16
// @global 64,48
// @local 16,16
// @arg M int 40
// @arg N int 56
// @arg K int 72
// @arg alpha float 2
// @arg A global float[2880] randint(305, -4, 4)
// @arg B global float[4032] randint(306, -4, 4)
// @arg beta float -1
// @arg C global float[2240] randint(307, -100, 100)
// @check C exact
// @bench-global 752,752
// @bench-arg M int 750
// @bench-arg N int 750
// @bench-arg K int 750
// @bench-arg A global float[562500] randint(305, -4, 4)
// @bench-arg B global float[562500] randint(306, -4, 4)
// @bench-arg C global float[562500] randint(307, -100, 100)
#define TS 16

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm_tile16(const int M, const int N, const int K, const float alpha, __global const float* A,
                  __global const float* B, const float beta, __global float* C) {
  __local float Asub[TS][TS];
  __local float Bsub[TS][TS];
  const int tc = get_local_id(0), tr = get_local_id(1);
  const int col = get_group_id(0) * TS + tc;
  const int row = get_group_id(1) * TS + tr;

  float acc = 0.0f;
  const int num_tiles = (K + TS - 1) / TS;
  for (int t = 0; t < num_tiles; ++t) {
    const int a_col = t * TS + tc;
    const int b_row = t * TS + tr;
    Asub[tr][tc] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
    Bsub[tr][tc] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TS; ++k) acc += Asub[tr][k] * Bsub[k][tc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
