// OpenCL C atomic functions, mapped for Vulkan.
//
// Both families are defined here, so that SPIRV-LLVM-Translator never maps an
// OpenCL atomic itself (its own mapping gives atomic_inc on __global memory
// Workgroup scope, and orders without a storage-class bit, which Vulkan
// forbids):
//   - OpenCL C 2.0/3.0 (C11 style): atomic_init, atomic_store, atomic_load,
//     atomic_exchange, atomic_compare_exchange_strong/weak, atomic_fetch_add/
//     sub/or/xor/and/min/max (each with its _explicit forms), and
//     atomic_flag_test_and_set/clear; the implicit forms are
//     memory_order_seq_cst at memory_scope_device, the _explicit form without
//     a scope is memory_scope_device. clang declares them for generic
//     pointers only; each asks clc which memory the pointer points to
//     (memory_of below).
//   - OpenCL 1.x: atomic_add/sub/xchg/inc/dec/cmpxchg/min/max/and/or/xor and
//     the atom_* of the cl_khr_*_int32/int64_base/extended_atomics
//     extensions: relaxed, at device scope on __global memory and work-group
//     scope on __local memory (the same narrowing as fences, fence_scope).
//
// Each calls a __spirv_Atomic* function, which the translator turns into the
// OpAtomic* instruction of that name with exactly the operands given here.
// Scope and semantics come from the helpers of vkcl_memory_model.h, the one
// table the fences use: the ordering bits of the memory order plus the
// storage-class bit of the memory the object is in (UniformMemory for
// __global, WorkgroupMemory for __local), and semantics None for
// memory_order_relaxed (VUIDs MemorySemantics-10870/10871: an ordering bit
// iff a storage-class bit). A load never carries Release and a store never
// Acquire: seq_cst is Acquire on a load and Release on a store, and the
// orders the specification forbids for an operation are compile errors.
//
// Choices of instruction: compare_exchange_weak is OpAtomicCompareExchange
// (OpAtomicCompareExchangeWeak and OpAtomicFlag* need the Kernel capability);
// an atomic_flag is an int that test_and_set exchanges with 1 and clear
// stores 0 to; float and double loads, stores, exchanges and
// compare-exchanges on __global memory act on the bits as int/long, which
// Vulkan allows without the float-atomics features; on __local memory,
// loads, stores and exchanges are the float atomics themselves (their int
// view would need a cast of a Workgroup pointer, which the lowering cannot
// do), which need VK_EXT_shader_atomic_float's shaderSharedFloat32Atomics
// or shaderSharedFloat64Atomics (map_memory_semantics records the need; a
// device without it refuses the program); atomic_init is a plain
// (non-atomic) store.
//
// Not provided (a call is a compile error naming it): atomics on float values
// (atomic_fetch_add on atomic_float, cl_ext_float_atomics), atomics on
// __private memory, and float/double compare-exchange on __local memory
// (Vulkan has no float compare-exchange).

#include "vkcl_memory_model.h"

#define OVERLOADABLE __attribute__((overloadable))

#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_int64_extended_atomics)
#define VKCL_INT64_ATOMICS 1
#endif

// ---------------------------------------------------------------------------
// The SPIR-V instructions, for every integer type the atomics use and both
// address spaces.

#define DECLARE_SPIRV_ATOMICS(T, AS)                                                                        \
  T OVERLOADABLE __spirv_AtomicLoad(volatile AS T* pointer, uint scope, uint semantics);                   \
  void OVERLOADABLE __spirv_AtomicStore(volatile AS T* pointer, uint scope, uint semantics, T value);      \
  T OVERLOADABLE __spirv_AtomicExchange(volatile AS T* pointer, uint scope, uint semantics, T value);      \
  T OVERLOADABLE __spirv_AtomicCompareExchange(volatile AS T* pointer, uint scope, uint equal, uint unequal, \
                                               T value, T comparator);                                     \
  T OVERLOADABLE __spirv_AtomicIIncrement(volatile AS T* pointer, uint scope, uint semantics);             \
  T OVERLOADABLE __spirv_AtomicIDecrement(volatile AS T* pointer, uint scope, uint semantics);             \
  T OVERLOADABLE __spirv_AtomicIAdd(volatile AS T* pointer, uint scope, uint semantics, T value);          \
  T OVERLOADABLE __spirv_AtomicISub(volatile AS T* pointer, uint scope, uint semantics, T value);          \
  T OVERLOADABLE __spirv_AtomicAnd(volatile AS T* pointer, uint scope, uint semantics, T value);           \
  T OVERLOADABLE __spirv_AtomicOr(volatile AS T* pointer, uint scope, uint semantics, T value);            \
  T OVERLOADABLE __spirv_AtomicXor(volatile AS T* pointer, uint scope, uint semantics, T value);           \
  T OVERLOADABLE __spirv_AtomicSMin(volatile AS T* pointer, uint scope, uint semantics, T value);          \
  T OVERLOADABLE __spirv_AtomicSMax(volatile AS T* pointer, uint scope, uint semantics, T value);          \
  T OVERLOADABLE __spirv_AtomicUMin(volatile AS T* pointer, uint scope, uint semantics, T value);          \
  T OVERLOADABLE __spirv_AtomicUMax(volatile AS T* pointer, uint scope, uint semantics, T value);

DECLARE_SPIRV_ATOMICS(int, __global)
DECLARE_SPIRV_ATOMICS(int, __local)
DECLARE_SPIRV_ATOMICS(uint, __global)
DECLARE_SPIRV_ATOMICS(uint, __local)
#ifdef VKCL_INT64_ATOMICS
DECLARE_SPIRV_ATOMICS(long, __global)
DECLARE_SPIRV_ATOMICS(long, __local)
DECLARE_SPIRV_ATOMICS(ulong, __global)
DECLARE_SPIRV_ATOMICS(ulong, __local)
#endif

// ---------------------------------------------------------------------------
// Orders and scopes of atomics, on top of the fences' table.

// Read-modify-writes (fetch_*, exchange, test_and_set, a compare-exchange
// that succeeds) take any order; seq_cst is AcquireRelease, as for fences.
static inline uint rmw_ordering(memory_order order) { return ordering_semantics(order); }

// "The order argument shall not be memory_order_release nor
// memory_order_acq_rel" (atomic_load); SPIR-V: OpAtomicLoad's semantics must
// not be Release or AcquireRelease. seq_cst loads acquire.
static inline uint load_ordering(memory_order order) {
  if (order == memory_order_release || order == memory_order_acq_rel) __vkcl_error_invalid_order_for_atomic_load();
  const uint bits = ordering_semantics(order);
  return bits == SPV_SEMANTICS_ACQUIRE_RELEASE ? SPV_SEMANTICS_ACQUIRE : bits;
}

// "The order argument shall not be memory_order_acquire nor
// memory_order_acq_rel" (atomic_store, atomic_flag_clear); SPIR-V:
// OpAtomicStore's semantics must not be Acquire or AcquireRelease. seq_cst
// stores release.
static inline uint store_ordering(memory_order order) {
  if (order == memory_order_acquire || order == memory_order_acq_rel) __vkcl_error_invalid_order_for_atomic_store();
  const uint bits = ordering_semantics(order);
  return bits == SPV_SEMANTICS_ACQUIRE_RELEASE ? SPV_SEMANTICS_RELEASE : bits;
}

// A failed compare-exchange is a load: "The failure argument shall not be
// memory_order_release nor memory_order_acq_rel. The failure argument shall
// be no stronger than the success argument": stronger is acquire or seq_cst
// after relaxed, and seq_cst after anything else (as the CTS's c11_atomics
// reads it: release then acquire is allowed, and compare_exchange_core
// makes the success order acquire too).
static inline uint failure_ordering(memory_order success, memory_order failure) {
  if (failure == memory_order_release || failure == memory_order_acq_rel) {
    __vkcl_error_invalid_failure_order();
  } else if ((success == memory_order_relaxed && failure != memory_order_relaxed) ||
             (failure == memory_order_seq_cst && success != memory_order_seq_cst)) {
    __vkcl_error_failure_order_stronger_than_success();
  }
  const uint bits = ordering_semantics(failure);
  return bits == SPV_SEMANTICS_ACQUIRE_RELEASE ? SPV_SEMANTICS_ACQUIRE : bits;
}

// The success order of a compare-exchange: release becomes acq_rel where
// the failure order acquires, since SPIR-V's Unequal semantics may not be
// stronger than its Equal semantics (and acquiring more is always allowed).
static inline memory_order success_ordering(memory_order success, memory_order failure) {
  return success == memory_order_release && failure == memory_order_acquire ? memory_order_acq_rel : success;
}

// The scope of an atomic on `memory` (CLK_GLOBAL_MEM_FENCE or
// CLK_LOCAL_MEM_FENCE): map(scope), narrowed to Workgroup for local memory.
// memory_scope_work_item is only for image fences.
static inline uint atomic_scope(cl_mem_fence_flags memory, memory_scope scope) {
  if (scope == memory_scope_work_item) __vkcl_error_work_item_scope_needs_image_fence_only();
  return fence_scope(memory, spirv_scope(scope));
}

// ---------------------------------------------------------------------------
// One function per operation and pointer type; both families call these.

#define IDENTITY(x) (x)

#define DEFINE_RMW(T, AS, MEMORY, NAME, SPIRV)                                                              \
  static inline T OVERLOADABLE NAME##_core(volatile AS T* p, T value, memory_order order, memory_scope scope) { \
    return __spirv_##SPIRV(p, atomic_scope(MEMORY, scope), ordered_semantics(MEMORY, rmw_ordering(order)), value); \
  }

// Load, store and exchange: for every atomic type (float on __local memory too).
#define DEFINE_ACCESS_CORE(T, AS, MEMORY)                                                                       \
  static inline T OVERLOADABLE load_core(volatile AS T* p, memory_order order, memory_scope scope) {            \
    return __spirv_AtomicLoad(p, atomic_scope(MEMORY, scope), ordered_semantics(MEMORY, load_ordering(order))); \
  }                                                                                                             \
  static inline void OVERLOADABLE store_core(volatile AS T* p, T value, memory_order order, memory_scope scope) { \
    __spirv_AtomicStore(p, atomic_scope(MEMORY, scope), ordered_semantics(MEMORY, store_ordering(order)), value); \
  }                                                                                                             \
  DEFINE_RMW(T, AS, MEMORY, exchange, AtomicExchange)

#define DEFINE_CORE(T, AS, MEMORY, MIN, MAX)                                                                    \
  DEFINE_ACCESS_CORE(T, AS, MEMORY)                                                                             \
  /* Returns the value read; the exchange happened when it equals `expected`. */                               \
  static inline T OVERLOADABLE compare_exchange_core(volatile AS T* p, T expected, T desired, memory_order success, \
                                                     memory_order failure, memory_scope scope) {               \
    const uint unequal = ordered_semantics(MEMORY, failure_ordering(success, failure));                                 \
    const uint equal = ordered_semantics(MEMORY, rmw_ordering(success_ordering(success, failure)));            \
    return __spirv_AtomicCompareExchange(p, atomic_scope(MEMORY, scope), equal, unequal, desired, expected);   \
  }                                                                                                             \
  static inline T OVERLOADABLE increment_core(volatile AS T* p, memory_order order, memory_scope scope) {       \
    return __spirv_AtomicIIncrement(p, atomic_scope(MEMORY, scope), ordered_semantics(MEMORY, rmw_ordering(order))); \
  }                                                                                                             \
  static inline T OVERLOADABLE decrement_core(volatile AS T* p, memory_order order, memory_scope scope) {       \
    return __spirv_AtomicIDecrement(p, atomic_scope(MEMORY, scope), ordered_semantics(MEMORY, rmw_ordering(order))); \
  }                                                                                                             \
  DEFINE_RMW(T, AS, MEMORY, add, AtomicIAdd)                                                                    \
  DEFINE_RMW(T, AS, MEMORY, sub, AtomicISub)                                                                    \
  DEFINE_RMW(T, AS, MEMORY, and, AtomicAnd)                                                                     \
  DEFINE_RMW(T, AS, MEMORY, or, AtomicOr)                                                                       \
  DEFINE_RMW(T, AS, MEMORY, xor, AtomicXor)                                                                     \
  DEFINE_RMW(T, AS, MEMORY, min, MIN)                                                                           \
  DEFINE_RMW(T, AS, MEMORY, max, MAX)

DEFINE_CORE(int, __global, CLK_GLOBAL_MEM_FENCE, AtomicSMin, AtomicSMax)
DEFINE_CORE(int, __local, CLK_LOCAL_MEM_FENCE, AtomicSMin, AtomicSMax)
DEFINE_CORE(uint, __global, CLK_GLOBAL_MEM_FENCE, AtomicUMin, AtomicUMax)
DEFINE_CORE(uint, __local, CLK_LOCAL_MEM_FENCE, AtomicUMin, AtomicUMax)
#ifdef VKCL_INT64_ATOMICS
DEFINE_CORE(long, __global, CLK_GLOBAL_MEM_FENCE, AtomicSMin, AtomicSMax)
DEFINE_CORE(long, __local, CLK_LOCAL_MEM_FENCE, AtomicSMin, AtomicSMax)
DEFINE_CORE(ulong, __global, CLK_GLOBAL_MEM_FENCE, AtomicUMin, AtomicUMax)
DEFINE_CORE(ulong, __local, CLK_LOCAL_MEM_FENCE, AtomicUMin, AtomicUMax)
#endif

// ---------------------------------------------------------------------------
// OpenCL C 2.0/3.0: generic pointers.

// Which memory a generic pointer points to, as fence flags:
// CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, or 0 for __private memory. clc
// (tools/clc/prepare_for_translation.cpp) replaces each call with that constant once
// the builtin is inlined and the pointer traces back to a named address
// space; a pointer whose address space is only known at run time is a
// compile error at the user's call.
cl_mem_fence_flags __vkcl_memory_of_pointer(const volatile __generic void* pointer);

static inline cl_mem_fence_flags memory_of(const volatile __generic void* object) {
  const cl_mem_fence_flags memory = __vkcl_memory_of_pointer(object);
  if (memory != CLK_GLOBAL_MEM_FENCE && memory != CLK_LOCAL_MEM_FENCE) __vkcl_error_atomic_needs_global_or_local_memory();
  return memory;
}

// `call`, with `p` the generic `object` as a pointer to QT in the memory it
// points to. Once memory_of is a constant, one arm is left, and the casts
// there cancel clang's cast to the generic address space.
#define ON_MEMORY_OF(object, QT, call)                                                          \
  (memory_of(object) == CLK_LOCAL_MEM_FENCE ? ({ __local QT* p = (__local QT*)(object); call; }) \
                                            : ({ __global QT* p = (__global QT*)(object); call; }))

// float and double compare-exchanges act on their bits as int or long: global memory only.
static inline void check_bits_atomic(const volatile __generic void* object) {
  if (memory_of(object) == CLK_LOCAL_MEM_FENCE) __vkcl_error_float_compare_exchange_on_local_memory();
}
#define NO_CHECK(object)

// float and double on __local memory: loads, stores and exchanges of the
// values themselves.
#define DEFINE_LOCAL_FLOAT_CORE(T)                                                                                 \
  T OVERLOADABLE __spirv_AtomicLoad(volatile __local T* pointer, uint scope, uint semantics);                      \
  void OVERLOADABLE __spirv_AtomicStore(volatile __local T* pointer, uint scope, uint semantics, T value);         \
  T OVERLOADABLE __spirv_AtomicExchange(volatile __local T* pointer, uint scope, uint semantics, T value);         \
  DEFINE_ACCESS_CORE(T, __local, CLK_LOCAL_MEM_FENCE)

DEFINE_LOCAL_FLOAT_CORE(float)
#if defined(VKCL_INT64_ATOMICS) && defined(cl_khr_fp64)
DEFINE_LOCAL_FLOAT_CORE(double)
#endif

// `local_call` with `p` the generic `object` as a __local T*, or
// `global_call` with it as a __global R* (R: T's bits as an integer).
#define ON_FLOAT_MEMORY_OF(object, T, R, local_call, global_call)                                      \
  (memory_of(object) == CLK_LOCAL_MEM_FENCE                                                            \
       ? ({ volatile __local T* p = (volatile __local T*)(object); local_call; })                      \
       : ({ volatile __global R* p = (volatile __global R*)(object); global_call; }))

// Load, store, exchange, compare-exchange and init of atomic_T for float
// and double: on __local memory the float atomics, on __global memory the
// atomics on their bits as R; compare-exchange on the bits only.
#define DEFINE_C11_FLOAT_ACCESS(T, R, TO_R, FROM_R)                                                                   \
  void OVERLOADABLE atomic_init(volatile __generic atomic_##T* object, T value) {                                    \
    ON_MEMORY_OF(object, T, *p = value);                                                                             \
  }                                                                                                                  \
  T OVERLOADABLE atomic_load_explicit(volatile __generic atomic_##T* object, memory_order order, memory_scope scope) { \
    return ON_FLOAT_MEMORY_OF(object, T, R, load_core(p, order, scope), FROM_R(load_core(p, order, scope)));       \
  }                                                                                                                  \
  void OVERLOADABLE atomic_store_explicit(volatile __generic atomic_##T* object, T value, memory_order order,        \
                                          memory_scope scope) {                                                      \
    ON_FLOAT_MEMORY_OF(object, T, R, store_core(p, value, order, scope), store_core(p, TO_R(value), order, scope)); \
  }                                                                                                                  \
  T OVERLOADABLE atomic_exchange_explicit(volatile __generic atomic_##T* object, T value, memory_order order,        \
                                          memory_scope scope) {                                                      \
    return ON_FLOAT_MEMORY_OF(object, T, R, exchange_core(p, value, order, scope),                                  \
                              FROM_R(exchange_core(p, TO_R(value), order, scope)));                                  \
  }                                                                                                                  \
  DEFINE_C11_ACCESS_DEFAULTS(T)                                                                                    \
  DEFINE_C11_COMPARE_EXCHANGE(T, R, TO_R, FROM_R, check_bits_atomic, strong)                                         \
  DEFINE_C11_COMPARE_EXCHANGE(T, R, TO_R, FROM_R, check_bits_atomic, weak)

// The overloads of load, store and exchange with a default scope or order,
// for any atomic_T: they call the _explicit form with every argument.
#define DEFINE_C11_ACCESS_DEFAULTS(T)                                                                                 \
  T OVERLOADABLE atomic_load_explicit(volatile __generic atomic_##T* object, memory_order order) {                   \
    return atomic_load_explicit(object, order, memory_scope_device);                                                 \
  }                                                                                                                  \
  T OVERLOADABLE atomic_load(volatile __generic atomic_##T* object) {                                                \
    return atomic_load_explicit(object, memory_order_seq_cst, memory_scope_device);                                  \
  }                                                                                                                  \
  void OVERLOADABLE atomic_store_explicit(volatile __generic atomic_##T* object, T value, memory_order order) {      \
    atomic_store_explicit(object, value, order, memory_scope_device);                                                \
  }                                                                                                                  \
  void OVERLOADABLE atomic_store(volatile __generic atomic_##T* object, T value) {                                   \
    atomic_store_explicit(object, value, memory_order_seq_cst, memory_scope_device);                                 \
  }                                                                                                                  \
  T OVERLOADABLE atomic_exchange_explicit(volatile __generic atomic_##T* object, T value, memory_order order) {      \
    return atomic_exchange_explicit(object, value, order, memory_scope_device);                                      \
  }                                                                                                                  \
  T OVERLOADABLE atomic_exchange(volatile __generic atomic_##T* object, T value) {                                   \
    return atomic_exchange_explicit(object, value, memory_order_seq_cst, memory_scope_device);                       \
  }

// Load, store, exchange, compare-exchange and init of an integer atomic_T
// (DEFINE_C11_FLOAT_ACCESS does float and double).
#define DEFINE_C11_INTEGER_ACCESS(T)                                                                                \
  void OVERLOADABLE atomic_init(volatile __generic atomic_##T* object, T value) {                                   \
    ON_MEMORY_OF(object, T, *p = value);                                                                            \
  }                                                                                                                 \
  T OVERLOADABLE atomic_load_explicit(volatile __generic atomic_##T* object, memory_order order, memory_scope scope) { \
    return ON_MEMORY_OF(object, volatile T, load_core(p, order, scope));                                            \
  }                                                                                                                 \
  void OVERLOADABLE atomic_store_explicit(volatile __generic atomic_##T* object, T value, memory_order order,       \
                                          memory_scope scope) {                                                     \
    ON_MEMORY_OF(object, volatile T, store_core(p, value, order, scope));                                           \
  }                                                                                                                 \
  T OVERLOADABLE atomic_exchange_explicit(volatile __generic atomic_##T* object, T value, memory_order order,       \
                                          memory_scope scope) {                                                     \
    return ON_MEMORY_OF(object, volatile T, exchange_core(p, value, order, scope));                                 \
  }                                                                                                                 \
  DEFINE_C11_ACCESS_DEFAULTS(T)                                                                                     \
  DEFINE_C11_COMPARE_EXCHANGE(T, T, IDENTITY, IDENTITY, NO_CHECK, strong)                                           \
  DEFINE_C11_COMPARE_EXCHANGE(T, T, IDENTITY, IDENTITY, NO_CHECK, weak)

// A weak compare-exchange is allowed to fail spuriously; this one never does.
// `expected` is written only when the exchange fails (C11 7.17.7.4).
#define DEFINE_C11_COMPARE_EXCHANGE(T, R, TO_R, FROM_R, CHECK, STRENGTH)                                            \
  bool OVERLOADABLE atomic_compare_exchange_##STRENGTH##_explicit(                                                  \
      volatile __generic atomic_##T* object, __generic T* expected, T desired, memory_order success,                \
      memory_order failure, memory_scope scope) {                                                                   \
    CHECK(object);                                                                                                  \
    const R wanted = TO_R(*expected);                                                                               \
    const R found = ON_MEMORY_OF(object, volatile R,                                                                \
                                 compare_exchange_core(p, wanted, TO_R(desired), success, failure, scope));         \
    if (found == wanted) return true;                                                                               \
    *expected = FROM_R(found);                                                                                      \
    return false;                                                                                                   \
  }                                                                                                                 \
  bool OVERLOADABLE atomic_compare_exchange_##STRENGTH##_explicit(                                                  \
      volatile __generic atomic_##T* object, __generic T* expected, T desired, memory_order success,                \
      memory_order failure) {                                                                                       \
    return atomic_compare_exchange_##STRENGTH##_explicit(object, expected, desired, success, failure,               \
                                                         memory_scope_device);                                      \
  }                                                                                                                 \
  bool OVERLOADABLE atomic_compare_exchange_##STRENGTH(volatile __generic atomic_##T* object,                       \
                                                       __generic T* expected, T desired) {                          \
    return atomic_compare_exchange_##STRENGTH##_explicit(object, expected, desired, memory_order_seq_cst,           \
                                                         memory_order_seq_cst, memory_scope_device);                \
  }

// atomic_fetch_<NAME> on atomic_T with an operand of type M.
#define DEFINE_C11_FETCH(T, M, NAME)                                                                                \
  T OVERLOADABLE atomic_fetch_##NAME##_explicit(volatile __generic atomic_##T* object, M operand, memory_order order, \
                                                memory_scope scope) {                                               \
    return ON_MEMORY_OF(object, volatile T, NAME##_core(p, (T)operand, order, scope));                              \
  }                                                                                                                 \
  T OVERLOADABLE atomic_fetch_##NAME##_explicit(volatile __generic atomic_##T* object, M operand, memory_order order) { \
    return atomic_fetch_##NAME##_explicit(object, operand, order, memory_scope_device);                             \
  }                                                                                                                 \
  T OVERLOADABLE atomic_fetch_##NAME(volatile __generic atomic_##T* object, M operand) {                            \
    return atomic_fetch_##NAME##_explicit(object, operand, memory_order_seq_cst, memory_scope_device);              \
  }

#define DEFINE_C11_INTEGER(T)          \
  DEFINE_C11_INTEGER_ACCESS(T)        \
  DEFINE_C11_FETCH(T, T, add)          \
  DEFINE_C11_FETCH(T, T, sub)          \
  DEFINE_C11_FETCH(T, T, or)           \
  DEFINE_C11_FETCH(T, T, xor)          \
  DEFINE_C11_FETCH(T, T, and)          \
  DEFINE_C11_FETCH(T, T, min)          \
  DEFINE_C11_FETCH(T, T, max)

DEFINE_C11_INTEGER(int)
DEFINE_C11_INTEGER(uint)
DEFINE_C11_FLOAT_ACCESS(float, int, as_int, as_float)
#ifdef VKCL_INT64_ATOMICS
DEFINE_C11_INTEGER(long)
DEFINE_C11_INTEGER(ulong)
// atomic_uintptr_t with a ptrdiff_t operand.
DEFINE_C11_FETCH(ulong, long, add)
DEFINE_C11_FETCH(ulong, long, sub)
#if defined(cl_khr_fp64)
DEFINE_C11_FLOAT_ACCESS(double, long, as_long, as_double)
#endif
#endif

// atomic_flag: an int that is 0 when clear.
bool OVERLOADABLE atomic_flag_test_and_set_explicit(volatile __generic atomic_flag* object, memory_order order,
                                                    memory_scope scope) {
  return ON_MEMORY_OF(object, volatile int, exchange_core(p, 1, order, scope)) != 0;
}
bool OVERLOADABLE atomic_flag_test_and_set_explicit(volatile __generic atomic_flag* object, memory_order order) {
  return atomic_flag_test_and_set_explicit(object, order, memory_scope_device);
}
bool OVERLOADABLE atomic_flag_test_and_set(volatile __generic atomic_flag* object) {
  return atomic_flag_test_and_set_explicit(object, memory_order_seq_cst, memory_scope_device);
}
void OVERLOADABLE atomic_flag_clear_explicit(volatile __generic atomic_flag* object, memory_order order,
                                             memory_scope scope) {
  ON_MEMORY_OF(object, volatile int, store_core(p, 0, order, scope));
}
void OVERLOADABLE atomic_flag_clear_explicit(volatile __generic atomic_flag* object, memory_order order) {
  atomic_flag_clear_explicit(object, order, memory_scope_device);
}
void OVERLOADABLE atomic_flag_clear(volatile __generic atomic_flag* object) {
  atomic_flag_clear_explicit(object, memory_order_seq_cst, memory_scope_device);
}

// ---------------------------------------------------------------------------
// OpenCL 1.x: named address spaces, relaxed, device scope (work-group for
// __local memory, narrowed by atomic_scope).

#define LEGACY_BINARY(PREFIX, NAME, CORE, T, AS)                           \
  T OVERLOADABLE PREFIX##NAME(volatile AS T* p, T value) {                 \
    return CORE##_core(p, value, memory_order_relaxed, memory_scope_device); \
  }

#define DEFINE_LEGACY(PREFIX, T, AS)                                                           \
  LEGACY_BINARY(PREFIX, add, add, T, AS)                                                       \
  LEGACY_BINARY(PREFIX, sub, sub, T, AS)                                                       \
  LEGACY_BINARY(PREFIX, xchg, exchange, T, AS)                                                 \
  LEGACY_BINARY(PREFIX, min, min, T, AS)                                                       \
  LEGACY_BINARY(PREFIX, max, max, T, AS)                                                       \
  LEGACY_BINARY(PREFIX, and, and, T, AS)                                                       \
  LEGACY_BINARY(PREFIX, or, or, T, AS)                                                         \
  LEGACY_BINARY(PREFIX, xor, xor, T, AS)                                                       \
  T OVERLOADABLE PREFIX##inc(volatile AS T* p) {                                               \
    return increment_core(p, memory_order_relaxed, memory_scope_device);                       \
  }                                                                                            \
  T OVERLOADABLE PREFIX##dec(volatile AS T* p) {                                               \
    return decrement_core(p, memory_order_relaxed, memory_scope_device);                       \
  }                                                                                            \
  T OVERLOADABLE PREFIX##cmpxchg(volatile AS T* p, T compare, T value) {                       \
    return compare_exchange_core(p, compare, value, memory_order_relaxed, memory_order_relaxed, \
                                 memory_scope_device);                                         \
  }

// OpenCL 1.1+ atomic_* (int, uint), and the cl_khr_*_int32_* atom_*.
DEFINE_LEGACY(atomic_, int, __global)
DEFINE_LEGACY(atomic_, int, __local)
DEFINE_LEGACY(atomic_, uint, __global)
DEFINE_LEGACY(atomic_, uint, __local)
DEFINE_LEGACY(atom_, int, __global)
DEFINE_LEGACY(atom_, int, __local)
DEFINE_LEGACY(atom_, uint, __global)
DEFINE_LEGACY(atom_, uint, __local)
#ifdef VKCL_INT64_ATOMICS
// cl_khr_int64_base_atomics / cl_khr_int64_extended_atomics.
DEFINE_LEGACY(atom_, long, __global)
DEFINE_LEGACY(atom_, long, __local)
DEFINE_LEGACY(atom_, ulong, __global)
DEFINE_LEGACY(atom_, ulong, __local)
#endif

// OpenCL 1.1: atomic_xchg on float, on the bits.
float OVERLOADABLE atomic_xchg(volatile __global float* p, float value) {
  return as_float(exchange_core((volatile __global int*)p, as_int(value), memory_order_relaxed, memory_scope_device));
}
float OVERLOADABLE atomic_xchg(volatile __local float* p, float value) {
  return exchange_core(p, value, memory_order_relaxed, memory_scope_device);
}
