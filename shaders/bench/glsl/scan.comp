// Twin of ../scan.cl in storage buffers (conventions: reduce.comp):
// Hillis-Steele through two ping-pong shared buffers. `input` is
// `const restrict` in the kernel, `output` restrict and only written.
#version 460

const uint WG = 256;
layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) readonly restrict buffer Input { uint input_values[]; };
layout(set = 0, binding = 1, std430) writeonly restrict buffer Output { uint output_values[]; };
layout(push_constant, std430) uniform Params { uint n; };

shared uint buffers[2][WG];

void main() {
  uint lid = gl_LocalInvocationID.x, gid = gl_GlobalInvocationID.x;
  uint from = 0;
  buffers[0][lid] = gid < n ? input_values[gid] : 0u;
  barrier();
  for (uint offset = 1; offset < WG; offset <<= 1) {
    uint sum = buffers[from][lid];
    if (lid >= offset) sum += buffers[from][lid - offset];
    buffers[from ^ 1u][lid] = sum;
    from ^= 1u;
    barrier();
  }
  if (gid < n) output_values[gid] = buffers[from][lid];
}
