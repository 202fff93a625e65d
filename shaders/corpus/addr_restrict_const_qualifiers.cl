// restrict, const and volatile qualifiers on kernel pointer arguments.
// @kernel qualifiers
// @global 256
// @arg a global float[256] randint(86, -100, 100)
// @arg b global float[256] randint(87, -100, 100)
// @arg out global float[256] zero
// @arg flags global int[256] zero
// @check out exact
// @check flags exact
// @bench-global 16777216
// @bench-arg a global float[16777216] randint(86, -100, 100)
// @bench-arg b global float[16777216] randint(87, -100, 100)
// @bench-arg out global float[16777216] zero
// @bench-arg flags global int[16777216] zero
__kernel void qualifiers(__global const float* restrict a, __global const float* restrict b,
                         __global float* restrict out, volatile __global int* flags) {
  const int i = get_global_id(0);
  out[i] = a[i] - b[i];
  flags[i] = a[i] > b[i];
}
