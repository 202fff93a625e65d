// Buffer-reference twin of ../../scan.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): Hillis-Steele through two ping-pong shared buffers.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint WG = 256;

layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer InUints { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) restrict writeonly buffer OutUints { uint v[]; };

layout(push_constant, std430) uniform Push {
  InUints input_values;
  OutUints output_values;
  uint n;
  layout(offset = 32) uvec4 group_offset;
} pc;

shared uint buffers[2][WG];

void main() {
  uint lid = gl_LocalInvocationID.x;
  uint gid = (gl_WorkGroupID.x + pc.group_offset.x) * WG + lid;
  uint from = 0;
  buffers[0][lid] = gid < pc.n ? pc.input_values.v[gid] : 0u;
  barrier();
  for (uint offset = 1; offset < WG; offset <<= 1) {
    uint sum = buffers[from][lid];
    if (lid >= offset) sum += buffers[from][lid - offset];
    buffers[from ^ 1u][lid] = sum;
    from ^= 1u;
    barrier();
  }
  if (gid < pc.n) pc.output_values.v[gid] = buffers[from][lid];
}
