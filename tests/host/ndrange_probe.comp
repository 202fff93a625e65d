// What clc would emit for
//   __kernel void ndrange_probe(__global uint* records, __global uint* counter,
//                               uint tag, __local uint* scratch)
// written by hand in GLSL so the host runtime is tested without the compiler.
// The push-constant block is laid out exactly as ndrange_probe.spv.reflection
// says, and the OpenCL work-item functions are computed the way the compiler
// must compute them (see host/README.md, "Kernel ABI").
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint kScratchLength = 1;  // __local uint* scratch, in elements

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Uints { uint v[]; };

layout(push_constant, std430) uniform Push {
  layout(offset = 0) Uints records;
  layout(offset = 8) Uints counter;
  layout(offset = 16) uint tag;
  layout(offset = 32) uvec4 global_offset;
  layout(offset = 48) uvec4 global_size;
  layout(offset = 64) uvec4 enqueued_local_size;
  layout(offset = 80) uvec4 num_groups;
  layout(offset = 96) uvec4 group_offset;
  layout(offset = 112) uint work_dim;
} pc;

shared uint scratch[kScratchLength];

const uint kRecordWords = 32;

void main() {
  uvec3 group_id = gl_WorkGroupID + pc.group_offset.xyz;               // get_group_id
  uvec3 local_id = gl_LocalInvocationID;                               // get_local_id
  uvec3 local_size = gl_WorkGroupSize;                                 // get_local_size
  uvec3 global_id = group_id * pc.enqueued_local_size.xyz + local_id + pc.global_offset.xyz;  // get_global_id

  uvec3 rel = global_id - pc.global_offset.xyz;
  uint base = kRecordWords * (rel.x + pc.global_size.x * (rel.y + pc.global_size.y * rel.z));
  uint local_linear = local_id.x + local_size.x * (local_id.y + local_size.y * local_id.z);
  uint group_items = local_size.x * local_size.y * local_size.z;

  // Each work-item reads what its neighbour wrote: right only when the group
  // really has local_size work-items, scratch is long enough and the barrier works.
  scratch[local_linear] = local_linear * 3 + 1;
  barrier();
  uint neighbour = scratch[(local_linear + 1) % group_items];

  for (int d = 0; d < 3; ++d) {
    pc.records.v[base + 0 + d] = global_id[d];
    pc.records.v[base + 3 + d] = local_id[d];
    pc.records.v[base + 6 + d] = group_id[d];
    pc.records.v[base + 9 + d] = local_size[d];
    pc.records.v[base + 12 + d] = pc.enqueued_local_size[d];
    pc.records.v[base + 15 + d] = pc.num_groups[d];
    pc.records.v[base + 18 + d] = pc.global_size[d];
    pc.records.v[base + 21 + d] = pc.global_offset[d];
  }
  pc.records.v[base + 24] = pc.work_dim;
  pc.records.v[base + 25] = pc.tag;
  pc.records.v[base + 26] = neighbour;
  pc.records.v[base + 27] = kScratchLength;
  pc.records.v[base + 28] = 0xC0FFEEu;
  atomicAdd(pc.counter.v[0], 1u);
}
