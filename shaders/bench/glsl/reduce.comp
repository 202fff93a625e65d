// Twin of ../reduce.cl as a Vulkan programmer writes it: storage buffers
// bound through a descriptor set, the scalar in push constants, the
// work-group size fixed in the shader (the kernel's reqd_work_group_size).
// Run by plain Vulkan code (tools/bench/twin_path.cpp): binding k is the
// kernel's k-th buffer argument, scalar k sits at push-constant offset 4k.
// `input` is `const restrict` there, `partial_sums` restrict and only written.
#version 460

const uint WG = 256;
layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) readonly restrict buffer Input { float input_values[]; };
layout(set = 0, binding = 1, std430) writeonly restrict buffer PartialSums { float partial_sums[]; };
layout(push_constant, std430) uniform Params { uint n; };

shared float scratch[WG];

void main() {
  uint lid = gl_LocalInvocationID.x, gid = gl_GlobalInvocationID.x;
  scratch[lid] = gid < n ? input_values[gid] : 0.0;
  barrier();
  for (uint stride = WG / 2; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier();
  }
  if (lid == 0) partial_sums[gl_WorkGroupID.x] = scratch[0];
}
