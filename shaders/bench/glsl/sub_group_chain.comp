// Twin of ../sub_group_chain.cl in storage buffers (conventions:
// reduce.comp): the hops inside each subgroup, with the subgroup control
// barrier that orders shared memory (what OpenCL's
// sub_group_barrier(CLK_LOCAL_MEM_FENCE) means) rather than
// subgroupBarrier(), which orders every storage class. Both buffers are
// restrict in the kernel and only written.
#version 460
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_memory_scope_semantics : require

const uint WG = 256;
layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) writeonly restrict buffer Output { uint output_values[]; };
layout(set = 0, binding = 1, std430) writeonly restrict buffer SubGroupSize { uint sub_group_size[]; };
layout(push_constant, std430) uniform Params { uint steps; };

shared uint hop[WG];

void main() {
  uint group = gl_WorkGroupID.x;
  uint lane = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  uint first = gl_SubgroupID * gl_SubgroupSize;
  uint right = lane + 1u == size ? 0u : lane + 1u;
  uint value = group * WG + first + lane;
  for (uint s = 0; s < steps; ++s) {
    hop[first + lane] = value;
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    value = hop[first + right] + 1u;
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
  }
  output_values[group * WG + first + lane] = value;
  if (group == 0 && gl_LocalInvocationIndex == 0) sub_group_size[0] = size;
}
