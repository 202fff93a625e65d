// pow, powr, pown and rootn (16 ulp each in the full profile, 32 between
// two implementations).
// @kernel powers
// @global 256
// @arg x global float[256] random(193, 0.1, 4)
// @arg y global float[256] random(194, -5, 5)
// @arg out global float4[256] zero
// @check out ulp 32
// @bench-global 8388608
// @bench-arg x global float[8388608] random(193, 0.1, 4)
// @bench-arg y global float[8388608] random(194, -5, 5)
// @bench-arg out global float4[8388608] zero
__kernel void powers(__global const float* x, __global const float* y, __global float4* out) {
  const int i = get_global_id(0);
  float a = x[i], b = y[i];
  int n = (int)b;
  out[i] = (float4)(pow(a, b), powr(a, b), pown(a, n), rootn(a, n == 0 ? 3 : n));
}
