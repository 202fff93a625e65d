// Buffer-reference twin of ../../message_passing.cl (vkcl's own ABI: addresses and group_offset
// in push constants, run by vkcl's runtime; the "twin_bda" column): message, release fence, flag
// (atomicExchange); a control barrier without memory semantics; flag polled
// through a volatile view, acquire fence, message. The fences are
// workgroup-scoped buffer fences, as OpenCL's read/write_mem_fence are; the
// messages are `coherent`, as GLSL's memory model needs for another
// invocation to see them.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_memory_scope_semantics : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
const uint WG = 256, SPIN_LIMIT = 1000u;

layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Messages { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Flags { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) volatile coherent readonly buffer PolledFlags { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) restrict writeonly buffer OutUints { uint v[]; };

layout(push_constant, std430) uniform Push {
  Messages data;
  Flags flags;
  OutUints output_values;
  uint iterations;
  layout(offset = 32) uvec4 group_offset;
} pc;

void main() {
  uint me = (gl_WorkGroupID.x + pc.group_offset.x) * WG + gl_LocalInvocationID.x, partner = me ^ 1u;
  PolledFlags polled = PolledFlags(pc.flags);
  uint sum = 0u, missed = 0u;
  for (uint round = 0; round < pc.iterations; ++round) {
    pc.data.v[2u * me + (round & 1u)] = me * 7u + round;
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    atomicExchange(pc.flags.v[me], round + 1u);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, 0, 0);
    uint polls = 0u;
    while (polled.v[partner] <= round && ++polls < SPIN_LIMIT) {
    }
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    if (polls < SPIN_LIMIT) sum += pc.data.v[2u * partner + (round & 1u)];
    else ++missed;
  }
  pc.output_values.v[2u * me] = sum;
  pc.output_values.v[2u * me + 1u] = missed;
}
