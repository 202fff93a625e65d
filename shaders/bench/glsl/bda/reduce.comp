// Buffer-reference twin of ../../reduce.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): the same tree over `shared` memory.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint WG = 256;

layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer InFloats { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) restrict writeonly buffer OutFloats { float v[]; };

layout(push_constant, std430) uniform Push {
  InFloats input_values;
  OutFloats partial_sums;
  uint n;
  layout(offset = 32) uvec4 group_offset;
} pc;

shared float scratch[WG];

void main() {
  uint lid = gl_LocalInvocationID.x, group = gl_WorkGroupID.x + pc.group_offset.x;
  uint gid = group * WG + lid;
  scratch[lid] = gid < pc.n ? pc.input_values.v[gid] : 0.0;
  barrier();
  for (uint stride = WG / 2; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier();
  }
  if (lid == 0) pc.partial_sums.v[group] = scratch[0];
}
