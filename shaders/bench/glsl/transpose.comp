// Twin of ../transpose.cl in storage buffers (conventions: reduce.comp): a
// padded 16 x 17 shared tile. `input` is `const restrict` in the kernel,
// `output` restrict and only written.
#version 460

const uint TILE = 16;
layout(local_size_x = TILE, local_size_y = TILE) in;

layout(set = 0, binding = 0, std430) readonly restrict buffer Input { float input_values[]; };
layout(set = 0, binding = 1, std430) writeonly restrict buffer Output { float output_values[]; };
layout(push_constant, std430) uniform Params { uint width; uint height; };

shared float tile[TILE][TILE + 1];

void main() {
  uvec2 l = gl_LocalInvocationID.xy, group = gl_WorkGroupID.xy;
  uint x = group.x * TILE + l.x, y = group.y * TILE + l.y;
  if (x < width && y < height) tile[l.y][l.x] = input_values[y * width + x];
  barrier();
  uint out_x = group.y * TILE + l.x, out_y = group.x * TILE + l.y;
  if (out_x < height && out_y < width) output_values[out_y * height + out_x] = tile[l.x][l.y];
}
