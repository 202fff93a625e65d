// Twin of ../histogram.cl in storage buffers (conventions: reduce.comp):
// shared bins counted with atomicAdd. `input` is `const restrict` in the
// kernel; `bins` is restrict and updated with atomics, so neither readonly
// nor writeonly.
#version 460

const uint WG = 256, BINS = 256;
layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) readonly restrict buffer Input { uint input_values[]; };
layout(set = 0, binding = 1, std430) restrict buffer Bins { uint bins[]; };
layout(push_constant, std430) uniform Params { uint n; uint per_item; };

shared uint counts[BINS];

void main() {
  uint lid = gl_LocalInvocationID.x;
  counts[lid] = 0u;
  barrier();
  uint first = gl_WorkGroupID.x * WG * per_item + lid;
  for (uint k = 0; k < per_item; ++k) {
    uint i = first + k * WG;
    if (i < n) atomicAdd(counts[input_values[i] & (BINS - 1u)], 1u);
  }
  barrier();
  if (counts[lid] != 0u) atomicAdd(bins[lid], counts[lid]);
}
