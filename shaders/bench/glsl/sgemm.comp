// Twin of ../sgemm.cl in storage buffers (conventions: reduce.comp): 16 x 16
// shared tiles of A and B, one C element per invocation. `a` and `b` are
// `const restrict` in the kernel, `c` restrict and only written. GLSL may
// contract a * b + c into a fused multiply-add, as OpenCL C does by default.
#version 460

const uint TILE = 16;
layout(local_size_x = TILE, local_size_y = TILE) in;

layout(set = 0, binding = 0, std430) readonly restrict buffer A { float a[]; };
layout(set = 0, binding = 1, std430) readonly restrict buffer B { float b[]; };
layout(set = 0, binding = 2, std430) writeonly restrict buffer C { float c[]; };
layout(push_constant, std430) uniform Params { uint n; };

shared float tile_a[TILE][TILE];
shared float tile_b[TILE][TILE];

void main() {
  uvec2 l = gl_LocalInvocationID.xy;
  uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
  float sum = 0.0;
  for (uint t = 0; t < n; t += TILE) {
    tile_a[l.y][l.x] = a[row * n + t + l.x];
    tile_b[l.y][l.x] = b[(t + l.y) * n + col];
    barrier();
    for (uint k = 0; k < TILE; ++k) sum += tile_a[l.y][k] * tile_b[k][l.x];
    barrier();
  }
  c[row * n + col] = sum;
}
