// Buffer-reference twin of ../../histogram.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): shared bins counted with atomicAdd.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint WG = 256, BINS = 256;

layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer InUints { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) restrict buffer Bins { uint v[]; };

layout(push_constant, std430) uniform Push {
  InUints input_values;
  Bins bins;
  uint n;
  uint per_item;
  layout(offset = 32) uvec4 group_offset;
} pc;

shared uint counts[BINS];

void main() {
  uint lid = gl_LocalInvocationID.x;
  counts[lid] = 0u;
  barrier();
  uint first = (gl_WorkGroupID.x + pc.group_offset.x) * WG * pc.per_item + lid;
  for (uint k = 0; k < pc.per_item; ++k) {
    uint i = first + k * WG;
    if (i < pc.n) atomicAdd(counts[pc.input_values.v[i] & (BINS - 1u)], 1u);
  }
  barrier();
  if (counts[lid] != 0u) atomicAdd(pc.bins.v[lid], counts[lid]);
}
