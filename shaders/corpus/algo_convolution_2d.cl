// 2-D convolution of an image with a 5x5 kernel from __constant memory,
// clamping coordinates at the edges.
// @kernel conv2d
// @global 32,16
// @local 8,8
// @arg image global float[512] randint(38, 0, 15)
// @arg weights constant float[25] randint(39, -2, 2)
// @arg out global float[512] zero
// @check out exact
// @bench-global 4096,2048
// @bench-arg image global float[8388608] randint(38, 0, 15)
// @bench-arg out global float[8388608] zero
__kernel void conv2d(__global const float* image, __constant float* weights, __global float* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int w = get_global_size(0), h = get_global_size(1);
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
      acc += image[sy * w + sx] * weights[(dy + 2) * 5 + dx + 2];
    }
  out[y * w + x] = acc;
}
