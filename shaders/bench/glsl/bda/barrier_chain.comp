// Buffer-reference twin of ../../barrier_chain.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): dependent hops through shared memory,
// two barrier()s per step.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint WG = 256;

layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer InUints { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) restrict writeonly buffer OutUints { uint v[]; };

layout(push_constant, std430) uniform Push {
  InUints input_values;
  OutUints output_values;
  uint steps;
  layout(offset = 32) uvec4 group_offset;
} pc;

shared uint hop[WG];

void main() {
  uint lid = gl_LocalInvocationID.x;
  uint gid = (gl_WorkGroupID.x + pc.group_offset.x) * WG + lid;
  uint right = lid + 1u == WG ? 0u : lid + 1u;
  uint value = pc.input_values.v[gid];
  for (uint s = 0; s < pc.steps; ++s) {
    hop[lid] = value;
    barrier();
    value = hop[right] + 1u;
    barrier();
  }
  pc.output_values.v[gid] = value;
}
