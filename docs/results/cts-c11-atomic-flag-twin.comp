#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint kLen = 1;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Ints { int v[]; };
layout(push_constant, std430) uniform Push {
  layout(offset = 0) uint threadCount;
  layout(offset = 4) uint numDestItems;
  layout(offset = 8) Ints finalDest;
  layout(offset = 16) Ints oldValues;
  layout(offset = 32) uvec4 enqueued;
  layout(offset = 48) uvec4 gidbase;
  layout(offset = 64) uvec4 goff;
} pc;
shared uint flags[kLen];
void main() {
  uint lid = gl_LocalInvocationID.x;
  uint tid = gl_WorkGroupID.x * gl_WorkGroupSize.x + lid;
  if (lid == 0)
    for (uint i = 0; i < pc.numDestItems; i++) atomicStore(flags[i], 0u, gl_ScopeWorkgroup, 0, 0);
  barrier();
  uint stop = 0;
  for (uint cnt = 0; stop == 0 && cnt < pc.threadCount; cnt++) {
    uint set = atomicExchange(flags[cnt], 1u);
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    if (set == 0) {
      uint cs = gl_WorkGroupID.x * gl_WorkGroupSize.x + cnt;
      if (pc.oldValues.v[cs] == 1000000000) { pc.oldValues.v[cs] = int(tid); stop = 1; }
      memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer, gl_SemanticsRelease);
      atomicStore(flags[cnt], 0u, gl_ScopeWorkgroup, 0, 0);
    }
  }
  barrier();
  if (lid == 0)
    for (uint i = 0; i < pc.numDestItems; i++) pc.finalDest.v[i] = int(atomicExchange(flags[i], 1u));
}
