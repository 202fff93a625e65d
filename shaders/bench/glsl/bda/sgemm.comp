// Buffer-reference twin of ../../sgemm.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): 16 x 16 shared tiles of A and B, one C element
// per invocation. GLSL may contract a * b + c into a fused multiply-add, as
// OpenCL C does by default.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint TILE = 16;

layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer InFloats { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) restrict writeonly buffer OutFloats { float v[]; };

layout(push_constant, std430) uniform Push {
  InFloats a;
  InFloats b;
  OutFloats c;
  uint n;
  layout(offset = 32) uvec4 group_offset;
} pc;

shared float tile_a[TILE][TILE];
shared float tile_b[TILE][TILE];

void main() {
  uvec2 l = gl_LocalInvocationID.xy, group = gl_WorkGroupID.xy + pc.group_offset.xy;
  uint col = group.x * TILE + l.x, row = group.y * TILE + l.y, n = pc.n;
  float sum = 0.0;
  for (uint t = 0; t < n; t += TILE) {
    tile_a[l.y][l.x] = pc.a.v[row * n + t + l.x];
    tile_b[l.y][l.x] = pc.b.v[(t + l.y) * n + col];
    barrier();
    for (uint k = 0; k < TILE; ++k) sum += tile_a[l.y][k] * tile_b[k][l.x];
    barrier();
  }
  pc.c.v[row * n + col] = sum;
}
