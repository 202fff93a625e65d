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

static inline void work_group_control_barrier(uint memory_scope_spv, cl_mem_fence_flags flags) {
  __spirv_ControlBarrier(SPV_SCOPE_WORKGROUP, memory_scope_spv,
                         with_ordering(storage_semantics(flags), SPV_SEMANTICS_ACQUIRE_RELEASE));
}

static inline void sub_group_control_barrier(uint memory_scope_spv, cl_mem_fence_flags flags) {
  __spirv_ControlBarrier(SPV_SCOPE_SUBGROUP, memory_scope_spv,
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

// memory_scope → SPIR-V Scope.
//  - all_svm_devices / all_devices → Device: Vulkan forbids CrossDevice, and
//    the OpenCL API gives these scopes device-scope behaviour on memory
//    without fine-grained SVM, which is all vkcl has.
//  - work_item → only meaningful for CLK_IMAGE_MEM_FENCE (checked by the
//    caller); Vulkan requires Invocation scope to be Relaxed, which could not
//    order anything, so the fence is emitted at Workgroup scope: stronger than
//    asked, valid, and it keeps a work-item's own read_write image writes
//    visible to its later reads.
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

// memory_order → ordering bits. Vulkan has no sequentially consistent fences
// (SequentiallyConsistent is forbidden under both memory models), so seq_cst
// becomes AcquireRelease; relaxed orders nothing and is emitted as no
// instruction by the caller.
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

void __attribute__((overloadable)) work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  check_work_item_scope(flags, scope);
  work_group_control_barrier(spirv_scope(scope), flags);
}

void __attribute__((overloadable)) atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                                          memory_scope scope) {
  check_work_item_scope(flags, scope);
  uint ordering = ordering_semantics(order);
  uint scope_spv = spirv_scope(scope);
  if (ordering == SPV_SEMANTICS_NONE) return;
  uint semantics = with_ordering(storage_semantics(flags), ordering);
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
  check_work_item_scope(flags, scope);
  sub_group_control_barrier(spirv_scope(scope), flags);
}

#endif
