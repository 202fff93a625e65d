// A kernel that runs as long as it is told to, for the timeout test:
//   __kernel void spin(__global uint* out, uint iterations)
// runs 4096 * iterations steps. Nested loops because llvmpipe silently stops
// any one loop after 65535 iterations (gallivm's loop limiter).
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Uints { uint v[]; };

layout(push_constant, std430) uniform Push {
  layout(offset = 0) Uints out_values;
  layout(offset = 8) uint iterations;
} pc;

void main() {
  // Floating-point, so that no compiler can fold the loop into a closed form
  // (an integer LCG gets folded by llvmpipe).
  float f = float(gl_GlobalInvocationID.x);
  for (uint i = 0; i < pc.iterations; ++i)
    for (uint j = 0; j < 4096; ++j) f = fract(f * 1.61803 + 0.1);
  pc.out_values.v[gl_GlobalInvocationID.x] = uint(f * 1000.0) + 1;
}
