// OpenCL C synchronization functions, mapped for Vulkan.
//
// OpenCL's fence flags, memory orders and memory scopes become SPIR-V scopes
// and memory semantics through the helpers of vkcl_memory_model.h, the one
// mapping table (docs/synchronization.md), which atomics.cl
// shares. Each builtin calls __spirv_ControlBarrier or
// __spirv_MemoryBarrier, which SPIRV-LLVM-Translator turns into
// OpControlBarrier / OpMemoryBarrier with exactly the operands given here, so
// the translator's own mapping (SequentiallyConsistent everywhere,
// CrossWorkgroupMemory for global memory, ...) never reaches a module.
//
// What this file does not decide: the memory model. Semantics here carry
// storage-class and ordering bits only; spirv/map_memory_semantics adds
// MakeAvailable/MakeVisible under the Vulkan memory model and narrows Device
// scope to QueueFamily where the device lacks vulkanMemoryModelDeviceScope.
//
// Arguments must be compile-time constants once the call is inlined; clc
// rejects any barrier whose operands are not (naming the call site). Values
// the specification leaves undefined call a __vkcl_error_* function that is
// never defined: if such a call survives constant folding, clc reports it as
// a compile error at the user's call site instead of guessing.

#include "vkcl_memory_model.h"

void __spirv_ControlBarrier(uint execution_scope, uint memory_scope, uint semantics);
void __spirv_MemoryBarrier(uint memory_scope, uint semantics);

static inline void work_group_control_barrier(uint memory_scope_spv, cl_mem_fence_flags flags) {
  __spirv_ControlBarrier(SPV_SCOPE_WORKGROUP, fence_scope(flags, memory_scope_spv),
                         with_ordering(storage_semantics(flags), SPV_SEMANTICS_ACQUIRE_RELEASE));
}

static inline void sub_group_control_barrier(uint memory_scope_spv, cl_mem_fence_flags flags) {
  __spirv_ControlBarrier(SPV_SCOPE_SUBGROUP, fence_scope(flags, memory_scope_spv),
                         with_ordering(storage_semantics(flags), SPV_SEMANTICS_ACQUIRE_RELEASE));
}

// mem_fence and friends order the work-item's accesses as seen by its
// work-group (OpenCL C 2.0: mem_fence(f) is atomic_work_item_fence(f,
// memory_order_acq_rel, memory_scope_work_group)).
static inline void work_group_memory_barrier(cl_mem_fence_flags flags, uint ordering_bits) {
  uint semantics = with_ordering(storage_semantics(flags), ordering_bits);
  if (semantics != SPV_SEMANTICS_NONE) __spirv_MemoryBarrier(SPV_SCOPE_WORKGROUP, semantics);
}

void __attribute__((overloadable)) barrier(cl_mem_fence_flags flags) {
  work_group_control_barrier(SPV_SCOPE_WORKGROUP, flags);
}

void __attribute__((overloadable)) mem_fence(cl_mem_fence_flags flags) {
  work_group_memory_barrier(flags, SPV_SEMANTICS_ACQUIRE_RELEASE);
}

void __attribute__((overloadable)) read_mem_fence(cl_mem_fence_flags flags) {
  work_group_memory_barrier(flags, SPV_SEMANTICS_ACQUIRE);
}

void __attribute__((overloadable)) write_mem_fence(cl_mem_fence_flags flags) {
  work_group_memory_barrier(flags, SPV_SEMANTICS_RELEASE);
}

#if defined(__opencl_c_atomic_scope_device) || __OPENCL_C_VERSION__ >= 200

static inline void check_work_item_scope(cl_mem_fence_flags flags, memory_scope scope) {
  if (scope == memory_scope_work_item && flags != CLK_IMAGE_MEM_FENCE)
    __vkcl_error_work_item_scope_needs_image_fence_only();
}

void __attribute__((overloadable)) work_group_barrier(cl_mem_fence_flags flags) {
  work_group_control_barrier(SPV_SCOPE_WORKGROUP, flags);
}

// OpenCL C 3.0, work_group_barrier: local memory is always ordered at
// work-group scope whatever `scope` says (fence_scope), and for
// CLK_IMAGE_MEM_FENCE "the value of scope must be memory_scope_work_group".
// memory_scope_work_item is only for atomic_work_item_fence. A sub-group
// scope is allowed: global accesses then become visible to the sub-group,
// local ones still to the work-group (so with both, Workgroup scope).
void __attribute__((overloadable)) work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  if (scope == memory_scope_work_item) __vkcl_error_work_item_scope_needs_image_fence_only();
  if ((flags & CLK_IMAGE_MEM_FENCE) && scope != memory_scope_work_group)
    __vkcl_error_image_fence_barrier_needs_work_group_scope();
  uint memory_scope_spv = spirv_scope(scope);
  if ((flags & CLK_LOCAL_MEM_FENCE) && memory_scope_spv > SPV_SCOPE_WORKGROUP) memory_scope_spv = SPV_SCOPE_WORKGROUP;
  work_group_control_barrier(memory_scope_spv, flags);
}

void __attribute__((overloadable)) atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                                          memory_scope scope) {
  // Invalid arguments are errors even where the fence would emit nothing.
  check_work_item_scope(flags, scope);
  const uint semantics = ordered_semantics(flags, ordering_semantics(order));
  const uint scope_spv = fence_scope(flags, spirv_scope(scope));
  if (semantics != SPV_SEMANTICS_NONE) __spirv_MemoryBarrier(scope_spv, semantics);
}

#endif

#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)

// OpenCL C 3.0: "sub_group_barrier(flags) ... the scope is
// memory_scope_sub_group". SPIRV-LLVM-Translator emits Workgroup here.
void __attribute__((overloadable)) sub_group_barrier(cl_mem_fence_flags flags) {
  sub_group_control_barrier(SPV_SCOPE_SUBGROUP, flags);
}

void __attribute__((overloadable)) sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  if (scope == memory_scope_work_item) __vkcl_error_work_item_scope_needs_image_fence_only();
  sub_group_control_barrier(spirv_scope(scope), flags);
}

#endif
