// Buffer-reference twin of ../../sub_group_chain.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): the hops inside each subgroup, with
// the subgroup control barrier that orders shared memory (what OpenCL's
// sub_group_barrier(CLK_LOCAL_MEM_FENCE) means) rather than
// subgroupBarrier(), which orders every storage class.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_memory_scope_semantics : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint WG = 256;

layout(buffer_reference, std430, buffer_reference_align = 4) restrict writeonly buffer OutUints { uint v[]; };

layout(push_constant, std430) uniform Push {
  OutUints output_values;
  OutUints sub_group_size;
  uint steps;
  layout(offset = 32) uvec4 group_offset;
} pc;

shared uint hop[WG];

void main() {
  uint group = gl_WorkGroupID.x + pc.group_offset.x;
  uint lane = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  uint first = gl_SubgroupID * gl_SubgroupSize;
  uint right = lane + 1u == size ? 0u : lane + 1u;
  uint value = group * WG + first + lane;
  for (uint s = 0; s < pc.steps; ++s) {
    hop[first + lane] = value;
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    value = hop[first + right] + 1u;
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
  }
  pc.output_values.v[group * WG + first + lane] = value;
  if (group == 0 && gl_LocalInvocationIndex == 0) pc.sub_group_size.v[0] = size;
}
