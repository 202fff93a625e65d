// Twin of ../barrier_chain.cl in storage buffers (conventions: reduce.comp):
// dependent hops through shared memory, two barrier()s per step. `input` is
// `const restrict` in the kernel, `output` restrict and only written.
#version 460

const uint WG = 256;
layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) readonly restrict buffer Input { uint input_values[]; };
layout(set = 0, binding = 1, std430) writeonly restrict buffer Output { uint output_values[]; };
layout(push_constant, std430) uniform Params { uint steps; };

shared uint hop[WG];

void main() {
  uint lid = gl_LocalInvocationID.x, gid = gl_GlobalInvocationID.x;
  uint right = lid + 1u == WG ? 0u : lid + 1u;
  uint value = input_values[gid];
  for (uint s = 0; s < steps; ++s) {
    hop[lid] = value;
    barrier();
    value = hop[right] + 1u;
    barrier();
  }
  output_values[gid] = value;
}
