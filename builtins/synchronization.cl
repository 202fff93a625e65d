// OpenCL C synchronization functions, mapped for Vulkan.
//
// This file is the one place where OpenCL's fence flags, memory orders and
// memory scopes become SPIR-V scopes and memory semantics (DESIGN.md, "The
// synchronization mapping"). Each builtin calls __spirv_ControlBarrier or
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

void __spirv_ControlBarrier(uint execution_scope, uint memory_scope, uint semantics);
void __spirv_MemoryBarrier(uint memory_scope, uint semantics);

void __vkcl_error_invalid_fence_flags(void);
void __vkcl_error_invalid_memory_scope(void);
void __vkcl_error_invalid_memory_order(void);
void __vkcl_error_work_item_scope_needs_image_fence_only(void);
void __vkcl_error_image_fence_barrier_needs_work_group_scope(void);

#define CLK_ALL_MEM_FENCES (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE)

// Storage classes a fence covers. Global memory is UniformMemory, which under
// Vulkan covers StorageBuffer and PhysicalStorageBuffer; CrossWorkgroupMemory
// is accepted by spirv-val but ignored by Vulkan drivers, so it is never used.
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

// The SPIR-V memory scope of a fence on `flags` at SPIR-V scope `scope`.
// "For local memory, all visibility is constrained to within a given
// work-group and scopes wider than memory_scope_work_group carry no
// additional meaning" (OpenCL 3.0 API, memory consistency model), so a fence
// on local memory alone is reduced to Workgroup scope, which costs less than
// Device; with global or image memory in the flags the requested scope
// stands (it covers the local part too). Larger SPIR-V Scope values are
// narrower (Device 1, Workgroup 2, Subgroup 3).
static inline uint fence_scope(cl_mem_fence_flags flags, uint scope) {
  if ((flags & (CLK_ALL_MEM_FENCES & ~CLK_LOCAL_MEM_FENCE)) == 0 && scope < SPV_SCOPE_WORKGROUP)
    return SPV_SCOPE_WORKGROUP;
  return scope;
}

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
  const uint storage = storage_semantics(flags);
  const uint ordering = ordering_semantics(order);
  const uint scope_spv = fence_scope(flags, spirv_scope(scope));
  const uint semantics = ordering == SPV_SEMANTICS_NONE ? SPV_SEMANTICS_NONE : with_ordering(storage, ordering);
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
