// Matrix-vector product with float4 dot(), one row per work-item.
// @kernel matvec
// @global 64
// @arg m global float4[1024] randint(22, -8, 8)
// @arg v global float4[16] randint(23, -8, 8)
// @arg y global float[64] zero
// @check y exact
// @bench-global 524288
// @bench-arg m global float4[8388608] randint(22, -8, 8)
// @bench-arg y global float[524288] zero
__kernel void matvec(__global const float4* m, __global const float4* v, __global float* y) {
  const int row = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k) acc += dot(m[row * 16 + k], v[k]);
  y[row] = acc;
}
