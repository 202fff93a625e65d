// Buffer-reference twin of ../../transpose.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): a padded 16 x 17 shared tile.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint TILE = 16;

layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer InFloats { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) restrict writeonly buffer OutFloats { float v[]; };

layout(push_constant, std430) uniform Push {
  InFloats input_values;
  OutFloats output_values;
  uint width;
  uint height;
  layout(offset = 32) uvec4 group_offset;
} pc;

shared float tile[TILE][TILE + 1];

void main() {
  uvec2 l = gl_LocalInvocationID.xy, group = gl_WorkGroupID.xy + pc.group_offset.xy;
  uint x = group.x * TILE + l.x, y = group.y * TILE + l.y;
  if (x < pc.width && y < pc.height) tile[l.y][l.x] = pc.input_values.v[y * pc.width + x];
  barrier();
  uint out_x = group.y * TILE + l.x, out_y = group.x * TILE + l.y;
  if (out_x < pc.height && out_y < pc.width) pc.output_values.v[out_y * pc.height + out_x] = tile[l.x][l.y];
}
