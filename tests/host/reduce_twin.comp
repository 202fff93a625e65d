// GLSL twin of shaders/examples/reduce.cl, with a hand-written reflection, so
// that reduce_test and vkcl-reduce-example run before clc can compile the
// original. Same tree, same arguments, same results.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint kScratchLength = 1;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ConstFloats { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };

layout(push_constant, std430) uniform Push {
  layout(offset = 0) ConstFloats input_values;
  layout(offset = 8) Floats partial_sums;
  layout(offset = 16) uint n;
  layout(offset = 32) uvec4 global_offset;
  layout(offset = 48) uvec4 enqueued_local_size;
  layout(offset = 64) uvec4 group_offset;
} pc;

shared float scratch[kScratchLength];

void main() {
  uint group = gl_WorkGroupID.x + pc.group_offset.x;
  uint lid = gl_LocalInvocationID.x;
  uint gid = group * pc.enqueued_local_size.x + lid + pc.global_offset.x;
  uint size = gl_WorkGroupSize.x;

  scratch[lid] = gid < pc.n ? pc.input_values.v[gid] : 0.0;
  barrier();
  for (uint stride = 1; stride < size; stride <<= 1) {
    if (lid % (2 * stride) == 0 && lid + stride < size) scratch[lid] += scratch[lid + stride];
    barrier();
  }
  if (lid == 0) pc.partial_sums.v[group] = scratch[0];
}
