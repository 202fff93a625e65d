// 1-D convolution with a 9-tap filter in a __constant buffer argument.
// @kernel conv1d
// @global 256
// @arg signal global float[264] randint(36, -16, 16)
// @arg filter constant float[9] randint(37, -4, 4)
// @arg out global float[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg signal global float[16777224] randint(36, -16, 16)
// @bench-arg out global float[16777216] zero
__kernel void conv1d(__global const float* signal, __constant float* filter, __global float* out) {
  const int i = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < 9; ++k) acc += signal[i + k] * filter[k];
  out[i] = acc;
}
