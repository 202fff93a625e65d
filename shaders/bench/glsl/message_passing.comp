// Twin of ../message_passing.cl in storage buffers (conventions:
// reduce.comp): message, release fence, flag (atomicExchange); a control
// barrier without memory semantics; flag polled with volatile loads, acquire
// fence, message. The fences are workgroup-scoped buffer fences, as
// OpenCL's read/write_mem_fence are; the messages and flags are `coherent`,
// as GLSL's memory model needs for another invocation to see them. The
// kernel's pointers are not restrict, and only `output` is restrict here: it
// is a buffer of its own, only written, by its own work-item; `data` and
// `flags` carry the messages between invocations and stay plain.
#version 460
#extension GL_KHR_memory_scope_semantics : require

const uint WG = 256, SPIN_LIMIT = 1000u;
layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) coherent buffer Messages { uint data[]; };
// The only plain access to a flag is the poll, which OpenCL makes volatile.
layout(set = 0, binding = 1, std430) volatile coherent buffer Flags { uint flags[]; };
layout(set = 0, binding = 2, std430) writeonly restrict buffer Output { uint output_values[]; };
layout(push_constant, std430) uniform Params { uint iterations; };

void main() {
  uint me = gl_GlobalInvocationID.x, partner = me ^ 1u;
  uint sum = 0u, missed = 0u;
  for (uint round = 0; round < iterations; ++round) {
    data[2u * me + (round & 1u)] = me * 7u + round;
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    atomicExchange(flags[me], round + 1u);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, 0, 0);
    uint polls = 0u;
    while (flags[partner] <= round && ++polls < SPIN_LIMIT) {
    }
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    if (polls < SPIN_LIMIT) sum += data[2u * partner + (round & 1u)];
    else ++missed;
  }
  output_values[2u * me] = sum;
  output_values[2u * me + 1u] = missed;
}
