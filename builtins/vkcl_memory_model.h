// The one mapping table from OpenCL's memory orders, memory scopes and fence
// flags to SPIR-V scopes and memory semantics for Vulkan
// (docs/synchronization.md), shared by synchronization.cl (barriers and
// fences) and atomics.cl (atomic functions).
//
// What this header does not decide: the memory model. Semantics here carry
// storage-class and ordering bits only; spirv/map_memory_semantics adds
// MakeAvailable/MakeVisible under the Vulkan memory model and narrows Device
// scope to QueueFamily where the device lacks vulkanMemoryModelDeviceScope.
//
// Values the specification leaves undefined call a __vkcl_error_* function
// that is never defined: if such a call survives constant folding, clc
// (tools/clc/prepare_for_translation.cpp) reports it as a compile error at the user's
// call site instead of guessing.
#pragma once

// SPIR-V Scope (SPIR-V specification 3.27).
#define SPV_SCOPE_DEVICE 1u
#define SPV_SCOPE_WORKGROUP 2u
#define SPV_SCOPE_SUBGROUP 3u

// SPIR-V Memory Semantics (SPIR-V specification 3.25).
#define SPV_SEMANTICS_NONE 0x0u
#define SPV_SEMANTICS_ACQUIRE 0x2u
#define SPV_SEMANTICS_RELEASE 0x4u
#define SPV_SEMANTICS_ACQUIRE_RELEASE 0x8u
#define SPV_SEMANTICS_UNIFORM_MEMORY 0x40u
#define SPV_SEMANTICS_WORKGROUP_MEMORY 0x100u
#define SPV_SEMANTICS_IMAGE_MEMORY 0x800u

// Errors, each with its message in tools/clc/prepare_for_translation.cpp.
void __vkcl_error_invalid_fence_flags(void);
void __vkcl_error_invalid_memory_scope(void);
void __vkcl_error_invalid_memory_order(void);
void __vkcl_error_work_item_scope_needs_image_fence_only(void);
void __vkcl_error_image_fence_barrier_needs_work_group_scope(void);
void __vkcl_error_atomic_needs_global_or_local_memory(void);
void __vkcl_error_invalid_order_for_atomic_load(void);
void __vkcl_error_invalid_order_for_atomic_store(void);
void __vkcl_error_invalid_failure_order(void);
void __vkcl_error_failure_order_stronger_than_success(void);
void __vkcl_error_float_compare_exchange_on_local_memory(void);

#define CLK_ALL_MEM_FENCES (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE)

// Storage classes a fence covers. Global memory is UniformMemory, which under
// Vulkan covers StorageBuffer and PhysicalStorageBuffer; CrossWorkgroupMemory
// is accepted by spirv-val but ignored by Vulkan drivers, so it is never used.
// An atomic names the memory its object is in the same way
// (CLK_GLOBAL_MEM_FENCE or CLK_LOCAL_MEM_FENCE).
static inline uint storage_semantics(cl_mem_fence_flags flags) {
  if (flags & ~(cl_mem_fence_flags)CLK_ALL_MEM_FENCES) __vkcl_error_invalid_fence_flags();
  uint bits = SPV_SEMANTICS_NONE;
  if (flags & CLK_LOCAL_MEM_FENCE) bits |= SPV_SEMANTICS_WORKGROUP_MEMORY;
  if (flags & CLK_GLOBAL_MEM_FENCE) bits |= SPV_SEMANTICS_UNIFORM_MEMORY;
  if (flags & CLK_IMAGE_MEM_FENCE) bits |= SPV_SEMANTICS_IMAGE_MEMORY;
  return bits;
}

// The Vulkan environment forbids an ordering bit without a storage-class bit
// and the reverse, so a fence on no memory has no semantics at all.
static inline uint with_ordering(uint storage_bits, uint ordering_bits) {
  return storage_bits == SPV_SEMANTICS_NONE ? SPV_SEMANTICS_NONE : (storage_bits | ordering_bits);
}

// The semantics of a fence or an atomic on `flags` with the ordering bits of
// its memory order: none at all for memory_order_relaxed (VUIDs
// MemorySemantics-10870/10871: a storage-class bit needs an ordering bit).
static inline uint ordered_semantics(cl_mem_fence_flags flags, uint ordering_bits) {
  const uint storage = storage_semantics(flags);
  return ordering_bits == SPV_SEMANTICS_NONE ? SPV_SEMANTICS_NONE : with_ordering(storage, ordering_bits);
}

// The SPIR-V memory scope of a fence on `flags` at SPIR-V scope `scope`.
// "For local memory, all visibility is constrained to within a given
// work-group and scopes wider than memory_scope_work_group carry no
// additional meaning" (OpenCL 3.0 API, memory consistency model), so a fence
// on local memory alone is reduced to Workgroup scope, which costs less than
// Device; with global or image memory in the flags the requested scope
// stands (it covers the local part too). Larger SPIR-V Scope values are
// narrower (Device 1, Workgroup 2, Subgroup 3). An atomic on local memory is
// narrowed the same way.
static inline uint fence_scope(cl_mem_fence_flags flags, uint scope) {
  if ((flags & (CLK_ALL_MEM_FENCES & ~CLK_LOCAL_MEM_FENCE)) == 0 && scope < SPV_SCOPE_WORKGROUP)
    return SPV_SCOPE_WORKGROUP;
  return scope;
}

#if defined(__opencl_c_atomic_scope_device) || __OPENCL_C_VERSION__ >= 200

// memory_scope → SPIR-V Scope. Decisions the specifications leave to us:
//  - all_svm_devices / all_devices → Device. Vulkan forbids CrossDevice
//    (VUID-StandaloneSpirv-None-04636 .. 04641), and the OpenCL API gives these
//    scopes device-scope behaviour on memory that is not fine-grained SVM,
//    which is all the memory vkcl has.
//  - work_item → only with CLK_IMAGE_MEM_FENCE alone, in
//    atomic_work_item_fence (OpenCL C 3.0, "memory_scope"); checked by the
//    callers. Vulkan requires Invocation scope to be Relaxed, which orders
//    nothing, so the fence is emitted at Workgroup scope: stronger than asked,
//    valid, and it keeps a work-item's own read_write image writes visible to
//    its later reads.
//  - device under the Vulkan memory model becomes QueueFamily on devices
//    without vulkanMemoryModelDeviceScope: spirv/map_memory_semantics decides,
//    since it depends on the target, not on OpenCL.
static inline uint spirv_scope(memory_scope scope) {
  switch (scope) {
    case memory_scope_work_item:
    case memory_scope_work_group:
      return SPV_SCOPE_WORKGROUP;
#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
    case memory_scope_sub_group:
      return SPV_SCOPE_SUBGROUP;
#endif
    case memory_scope_device:
    case memory_scope_all_svm_devices:
      return SPV_SCOPE_DEVICE;
  }
  __vkcl_error_invalid_memory_scope();
  return SPV_SCOPE_DEVICE;
}

// memory_order → ordering bits. seq_cst → AcquireRelease: Vulkan has no
// sequentially consistent fences (SequentiallyConsistent is forbidden under
// both memory models, VUID MemorySemantics-10866), and for a fence on its own
// acq_rel is what the OpenCL memory model lets a single fence contribute; the
// total order S only exists among seq_cst operations, which need atomics.
// relaxed orders nothing: the caller emits no instruction.
static inline uint ordering_semantics(memory_order order) {
  switch (order) {
    case memory_order_relaxed:
      return SPV_SEMANTICS_NONE;
    case memory_order_acquire:
      return SPV_SEMANTICS_ACQUIRE;
    case memory_order_release:
      return SPV_SEMANTICS_RELEASE;
    case memory_order_acq_rel:
    case memory_order_seq_cst:
      return SPV_SEMANTICS_ACQUIRE_RELEASE;
  }
  __vkcl_error_invalid_memory_order();
  return SPV_SEMANTICS_NONE;
}

#endif
