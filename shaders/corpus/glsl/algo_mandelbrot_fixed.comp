// GLSL twin of algo_mandelbrot_fixed.cl (tools/corpus_bench/twin_side.h):
// 16.16 fixed point with 64-bit products, counts stored as 16-bit values.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(set = 0, binding = 0) writeonly buffer Counts { uint16_t counts[]; };
layout(push_constant) uniform Limit { int max_iter; };

void main() {
  const int px = int(gl_GlobalInvocationID.x), py = int(gl_GlobalInvocationID.y);
  const int64_t cr = -2 * 65536 + px * (3 * 65536 / 32);
  const int64_t ci = -65536 + py * (2 * 65536 / 24);
  int64_t zr = 0, zi = 0;
  int n = 0;
  while (n < max_iter) {
    const int64_t zr2 = (zr * zr) >> 16, zi2 = (zi * zi) >> 16;
    if (zr2 + zi2 > 4 * 65536) break;
    const int64_t t = zr2 - zi2 + cr;
    zi = ((2 * zr * zi) >> 16) + ci;
    zr = t;
    ++n;
  }
  counts[py * int(gl_NumWorkGroups.x * gl_WorkGroupSize.x) + px] = uint16_t(n);
}
