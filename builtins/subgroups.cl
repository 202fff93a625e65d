// OpenCL C sub-group collective functions (cl_khr_subgroups, OpenCL C 6.15.16)
// and the cl_khr_subgroup_* extensions, as Vulkan GroupNonUniform operations.
//
// Each function calls a __spirv_GroupNonUniform* function, which
// SPIRV-LLVM-Translator turns into the instruction of that name with the
// operands given here (scope Subgroup, and the GroupOperation Reduce,
// InclusiveScan, ExclusiveScan or ClusteredReduce). The translator's own
// mapping of sub_group_reduce_add and friends gives OpGroupIAdd and the like,
// which need the Kernel capability. spirv/legalize_subgroup_operations then
// declares the device features each instruction needs (subgroup_vote,
// subgroup_ballot, subgroup_arithmetic, subgroup_shuffle,
// subgroup_shuffle_relative, subgroup_clustered, subgroup_extended_types),
// which the runtime checks against VkPhysicalDeviceSubgroupProperties.
//
// Semantics: a Vulkan group operation covers the active invocations of the
// subgroup. OpenCL requires every work-item of the sub-group to reach these
// functions, so in a correct kernel the active invocations are the sub-group,
// the last sub-group of a work-group whose size is not a multiple of the
// sub-group size included (its missing invocations do not exist). Exclusive
// scans give the identity to the first work-item: 0 for add, 1 for mul, the
// type's largest value for min (+inf for floating point), its smallest for
// max (-inf), as OpenCL C asks.
//
// sub_group_broadcast and sub_group_non_uniform_broadcast use
// OpGroupNonUniformBroadcast, whose id SPIR-V 1.3 requires to be a constant;
// legalize_subgroup_operations turns the ones with a run-time id into
// OpGroupNonUniformShuffle (the id is sub-group uniform, so the two agree).
// The masks get_sub_group_eq_mask() and friends are computed from the
// sub-group local id, so no extra builtin variable is needed.
//
// Vectors of 8 and 16 components (broadcasts of cl_khr_subgroup_extended_types)
// are split in halves here, since Vulkan has no such vectors.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "vkcl_memory_model.h"

#define OVERLOADABLE __attribute__((overloadable))

// SPIR-V GroupOperation (SPIR-V specification 3.28).
#define SPV_REDUCE 0u
#define SPV_INCLUSIVE_SCAN 1u
#define SPV_EXCLUSIVE_SCAN 2u
#define SPV_CLUSTERED_REDUCE 3u

// ---------------------------------------------------------------------------
// The SPIR-V instructions.

bool __spirv_GroupNonUniformElect(uint scope);
bool __spirv_GroupNonUniformAll(uint scope, bool predicate);
bool __spirv_GroupNonUniformAny(uint scope, bool predicate);
uint4 __spirv_GroupNonUniformBallot(uint scope, bool predicate);
bool __spirv_GroupNonUniformInverseBallot(uint scope, uint4 value);
bool __spirv_GroupNonUniformBallotBitExtract(uint scope, uint4 value, uint index);
uint __spirv_GroupNonUniformBallotBitCount(uint scope, uint operation, uint4 value);
uint __spirv_GroupNonUniformBallotFindLSB(uint scope, uint4 value);
uint __spirv_GroupNonUniformBallotFindMSB(uint scope, uint4 value);
bool OVERLOADABLE __spirv_GroupNonUniformLogicalAnd(uint scope, uint operation, bool value);
bool OVERLOADABLE __spirv_GroupNonUniformLogicalOr(uint scope, uint operation, bool value);
bool OVERLOADABLE __spirv_GroupNonUniformLogicalXor(uint scope, uint operation, bool value);
bool OVERLOADABLE __spirv_GroupNonUniformLogicalAnd(uint scope, uint operation, bool value, uint cluster);
bool OVERLOADABLE __spirv_GroupNonUniformLogicalOr(uint scope, uint operation, bool value, uint cluster);
bool OVERLOADABLE __spirv_GroupNonUniformLogicalXor(uint scope, uint operation, bool value, uint cluster);

// Instructions on one value type T.
#define DECLARE_VALUE_INSTRUCTIONS(T)                                                      \
  T OVERLOADABLE __spirv_GroupNonUniformBroadcast(uint scope, T value, uint id);          \
  T OVERLOADABLE __spirv_GroupNonUniformBroadcastFirst(uint scope, T value);              \
  T OVERLOADABLE __spirv_GroupNonUniformShuffle(uint scope, T value, uint id);            \
  T OVERLOADABLE __spirv_GroupNonUniformShuffleXor(uint scope, T value, uint mask);       \
  T OVERLOADABLE __spirv_GroupNonUniformShuffleUp(uint scope, T value, uint delta);       \
  T OVERLOADABLE __spirv_GroupNonUniformShuffleDown(uint scope, T value, uint delta);     \
  bool OVERLOADABLE __spirv_GroupNonUniformAllEqual(uint scope, T value);

// Arithmetic instruction OP on T, with and without a cluster size.
#define DECLARE_ARITHMETIC(T, OP)                                                                   \
  T OVERLOADABLE __spirv_GroupNonUniform##OP(uint scope, uint operation, T value);                 \
  T OVERLOADABLE __spirv_GroupNonUniform##OP(uint scope, uint operation, T value, uint cluster);

// Integer types: S is signed, U unsigned.
#define DECLARE_INTEGER(S, U)                                                            \
  DECLARE_VALUE_INSTRUCTIONS(S) DECLARE_VALUE_INSTRUCTIONS(U)                            \
  DECLARE_ARITHMETIC(S, IAdd) DECLARE_ARITHMETIC(U, IAdd)                                \
  DECLARE_ARITHMETIC(S, IMul) DECLARE_ARITHMETIC(U, IMul)                                \
  DECLARE_ARITHMETIC(S, SMin) DECLARE_ARITHMETIC(U, UMin)                                \
  DECLARE_ARITHMETIC(S, SMax) DECLARE_ARITHMETIC(U, UMax)                                \
  DECLARE_ARITHMETIC(S, BitwiseAnd) DECLARE_ARITHMETIC(U, BitwiseAnd)                    \
  DECLARE_ARITHMETIC(S, BitwiseOr) DECLARE_ARITHMETIC(U, BitwiseOr)                      \
  DECLARE_ARITHMETIC(S, BitwiseXor) DECLARE_ARITHMETIC(U, BitwiseXor)

#define DECLARE_FLOAT(F)                                                               \
  DECLARE_VALUE_INSTRUCTIONS(F)                                                        \
  DECLARE_ARITHMETIC(F, FAdd) DECLARE_ARITHMETIC(F, FMul) DECLARE_ARITHMETIC(F, FMin)  \
  DECLARE_ARITHMETIC(F, FMax)

DECLARE_INTEGER(char, uchar)
DECLARE_INTEGER(short, ushort)
DECLARE_INTEGER(int, uint)
DECLARE_INTEGER(long, ulong)
DECLARE_FLOAT(float)
DECLARE_FLOAT(double)
DECLARE_FLOAT(half)

// Broadcasts of vectors up to 4 components go to the instruction as they are.
#define DECLARE_VECTOR_BROADCAST(T)                                                        \
  T OVERLOADABLE __spirv_GroupNonUniformBroadcast(uint scope, T value, uint id);          \
  T OVERLOADABLE __spirv_GroupNonUniformShuffle(uint scope, T value, uint id);
#define DECLARE_VECTOR_BROADCASTS(T) \
  DECLARE_VECTOR_BROADCAST(T##2) DECLARE_VECTOR_BROADCAST(T##3) DECLARE_VECTOR_BROADCAST(T##4)
DECLARE_VECTOR_BROADCASTS(char)
DECLARE_VECTOR_BROADCASTS(uchar)
DECLARE_VECTOR_BROADCASTS(short)
DECLARE_VECTOR_BROADCASTS(ushort)
DECLARE_VECTOR_BROADCASTS(int)
DECLARE_VECTOR_BROADCASTS(uint)
DECLARE_VECTOR_BROADCASTS(long)
DECLARE_VECTOR_BROADCASTS(ulong)
DECLARE_VECTOR_BROADCASTS(float)
DECLARE_VECTOR_BROADCASTS(double)
DECLARE_VECTOR_BROADCASTS(half)

// ---------------------------------------------------------------------------
// cl_khr_subgroups: all, any, broadcast, reduce and scan.

int OVERLOADABLE sub_group_all(int predicate) { return __spirv_GroupNonUniformAll(SPV_SCOPE_SUBGROUP, predicate != 0); }
int OVERLOADABLE sub_group_any(int predicate) { return __spirv_GroupNonUniformAny(SPV_SCOPE_SUBGROUP, predicate != 0); }

#define BROADCAST(T)                                                                          \
  T OVERLOADABLE sub_group_broadcast(T x, uint id) {                                          \
    return __spirv_GroupNonUniformBroadcast(SPV_SCOPE_SUBGROUP, x, id);                       \
  }                                                                                           \
  T OVERLOADABLE sub_group_non_uniform_broadcast(T x, uint id) {                              \
    return __spirv_GroupNonUniformBroadcast(SPV_SCOPE_SUBGROUP, x, id);                       \
  }
#define BROADCAST_SPLIT(T, HALF)                                                              \
  T OVERLOADABLE sub_group_broadcast(T x, uint id) {                                          \
    return (T)(sub_group_broadcast(x.lo, id), sub_group_broadcast(x.hi, id));                 \
  }                                                                                           \
  T OVERLOADABLE sub_group_non_uniform_broadcast(T x, uint id) {                              \
    return (T)(sub_group_broadcast(x.lo, id), sub_group_broadcast(x.hi, id));                 \
  }
#define BROADCASTS(T) \
  BROADCAST(T) BROADCAST(T##2) BROADCAST(T##3) BROADCAST(T##4) BROADCAST_SPLIT(T##8, T##4) BROADCAST_SPLIT(T##16, T##8)

BROADCASTS(char)
BROADCASTS(uchar)
BROADCASTS(short)
BROADCASTS(ushort)
BROADCASTS(int)
BROADCASTS(uint)
BROADCASTS(long)
BROADCASTS(ulong)
BROADCASTS(float)
BROADCASTS(double)
BROADCASTS(half)

// sub_group_<prefix>reduce_NAME, sub_group_<prefix>scan_inclusive_NAME and
// sub_group_<prefix>scan_exclusive_NAME of T through instruction OP.
#define COLLECTIVE(PREFIX, NAME, T, OP)                                                              \
  T OVERLOADABLE sub_group_##PREFIX##reduce_##NAME(T x) {                                            \
    return __spirv_GroupNonUniform##OP(SPV_SCOPE_SUBGROUP, SPV_REDUCE, x);                           \
  }                                                                                                  \
  T OVERLOADABLE sub_group_##PREFIX##scan_inclusive_##NAME(T x) {                                    \
    return __spirv_GroupNonUniform##OP(SPV_SCOPE_SUBGROUP, SPV_INCLUSIVE_SCAN, x);                   \
  }                                                                                                  \
  T OVERLOADABLE sub_group_##PREFIX##scan_exclusive_##NAME(T x) {                                    \
    return __spirv_GroupNonUniform##OP(SPV_SCOPE_SUBGROUP, SPV_EXCLUSIVE_SCAN, x);                   \
  }

// cl_khr_subgroup_clustered_reduce: the cluster size must be a compile-time
// constant (legalize_subgroup_operations reports one that is not).
#define CLUSTERED(NAME, T, OP)                                                                       \
  T OVERLOADABLE sub_group_clustered_reduce_##NAME(T x, uint cluster_size) {                         \
    return __spirv_GroupNonUniform##OP(SPV_SCOPE_SUBGROUP, SPV_CLUSTERED_REDUCE, x, cluster_size);   \
  }

#define COLLECTIVES(NAME, T, OP) \
  COLLECTIVE(, NAME, T, OP) COLLECTIVE(non_uniform_, NAME, T, OP) CLUSTERED(NAME, T, OP)
// Collectives only the non-uniform and clustered extensions have (mul, and, or, xor).
#define EXTENDED_COLLECTIVES(NAME, T, OP) COLLECTIVE(non_uniform_, NAME, T, OP) CLUSTERED(NAME, T, OP)

#define INTEGER_COLLECTIVES(S, U)                                                                       \
  COLLECTIVES(add, S, IAdd) COLLECTIVES(add, U, IAdd) COLLECTIVES(min, S, SMin) COLLECTIVES(min, U, UMin) \
  COLLECTIVES(max, S, SMax) COLLECTIVES(max, U, UMax)                                                   \
  EXTENDED_COLLECTIVES(mul, S, IMul) EXTENDED_COLLECTIVES(mul, U, IMul)                                 \
  EXTENDED_COLLECTIVES(and, S, BitwiseAnd) EXTENDED_COLLECTIVES(and, U, BitwiseAnd)                     \
  EXTENDED_COLLECTIVES(or, S, BitwiseOr) EXTENDED_COLLECTIVES(or, U, BitwiseOr)                         \
  EXTENDED_COLLECTIVES(xor, S, BitwiseXor) EXTENDED_COLLECTIVES(xor, U, BitwiseXor)
#define FLOAT_COLLECTIVES(F) \
  COLLECTIVES(add, F, FAdd) COLLECTIVES(min, F, FMin) COLLECTIVES(max, F, FMax) EXTENDED_COLLECTIVES(mul, F, FMul)

INTEGER_COLLECTIVES(char, uchar)
INTEGER_COLLECTIVES(short, ushort)
INTEGER_COLLECTIVES(int, uint)
INTEGER_COLLECTIVES(long, ulong)
FLOAT_COLLECTIVES(float)
FLOAT_COLLECTIVES(double)
FLOAT_COLLECTIVES(half)

// Logical collectives on int predicates (non-zero is true).
#define LOGICAL(NAME, OP)                                                                               \
  int OVERLOADABLE sub_group_non_uniform_reduce_logical_##NAME(int p) {                                  \
    return __spirv_GroupNonUniformLogical##OP(SPV_SCOPE_SUBGROUP, SPV_REDUCE, p != 0);                   \
  }                                                                                                     \
  int OVERLOADABLE sub_group_non_uniform_scan_inclusive_logical_##NAME(int p) {                          \
    return __spirv_GroupNonUniformLogical##OP(SPV_SCOPE_SUBGROUP, SPV_INCLUSIVE_SCAN, p != 0);           \
  }                                                                                                     \
  int OVERLOADABLE sub_group_non_uniform_scan_exclusive_logical_##NAME(int p) {                          \
    return __spirv_GroupNonUniformLogical##OP(SPV_SCOPE_SUBGROUP, SPV_EXCLUSIVE_SCAN, p != 0);           \
  }                                                                                                     \
  int OVERLOADABLE sub_group_clustered_reduce_logical_##NAME(int p, uint cluster_size) {                 \
    return __spirv_GroupNonUniformLogical##OP(SPV_SCOPE_SUBGROUP, SPV_CLUSTERED_REDUCE, p != 0, cluster_size); \
  }
LOGICAL(and, And)
LOGICAL(or, Or)
LOGICAL(xor, Xor)

// ---------------------------------------------------------------------------
// cl_khr_subgroup_non_uniform_vote

int OVERLOADABLE sub_group_elect(void) { return __spirv_GroupNonUniformElect(SPV_SCOPE_SUBGROUP); }
int OVERLOADABLE sub_group_non_uniform_all(int predicate) {
  return __spirv_GroupNonUniformAll(SPV_SCOPE_SUBGROUP, predicate != 0);
}
int OVERLOADABLE sub_group_non_uniform_any(int predicate) {
  return __spirv_GroupNonUniformAny(SPV_SCOPE_SUBGROUP, predicate != 0);
}

// ---------------------------------------------------------------------------
// Per-scalar-type functions: all_equal (vote), broadcast_first (ballot),
// shuffle, shuffle_xor (cl_khr_subgroup_shuffle), shuffle_up, shuffle_down
// (cl_khr_subgroup_shuffle_relative).

#define SCALAR_FUNCTIONS(T)                                                                      \
  int OVERLOADABLE sub_group_non_uniform_all_equal(T x) {                                        \
    return __spirv_GroupNonUniformAllEqual(SPV_SCOPE_SUBGROUP, x);                               \
  }                                                                                              \
  T OVERLOADABLE sub_group_broadcast_first(T x) {                                                \
    return __spirv_GroupNonUniformBroadcastFirst(SPV_SCOPE_SUBGROUP, x);                         \
  }                                                                                              \
  T OVERLOADABLE sub_group_shuffle(T x, uint id) {                                               \
    return __spirv_GroupNonUniformShuffle(SPV_SCOPE_SUBGROUP, x, id);                            \
  }                                                                                              \
  T OVERLOADABLE sub_group_shuffle_xor(T x, uint mask) {                                         \
    return __spirv_GroupNonUniformShuffleXor(SPV_SCOPE_SUBGROUP, x, mask);                       \
  }                                                                                              \
  T OVERLOADABLE sub_group_shuffle_up(T x, uint delta) {                                         \
    return __spirv_GroupNonUniformShuffleUp(SPV_SCOPE_SUBGROUP, x, delta);                       \
  }                                                                                              \
  T OVERLOADABLE sub_group_shuffle_down(T x, uint delta) {                                       \
    return __spirv_GroupNonUniformShuffleDown(SPV_SCOPE_SUBGROUP, x, delta);                     \
  }

SCALAR_FUNCTIONS(char)
SCALAR_FUNCTIONS(uchar)
SCALAR_FUNCTIONS(short)
SCALAR_FUNCTIONS(ushort)
SCALAR_FUNCTIONS(int)
SCALAR_FUNCTIONS(uint)
SCALAR_FUNCTIONS(long)
SCALAR_FUNCTIONS(ulong)
SCALAR_FUNCTIONS(float)
SCALAR_FUNCTIONS(double)
SCALAR_FUNCTIONS(half)

// ---------------------------------------------------------------------------
// cl_khr_subgroup_ballot

uint4 OVERLOADABLE sub_group_ballot(int predicate) {
  return __spirv_GroupNonUniformBallot(SPV_SCOPE_SUBGROUP, predicate != 0);
}
int OVERLOADABLE sub_group_inverse_ballot(uint4 value) {
  return __spirv_GroupNonUniformInverseBallot(SPV_SCOPE_SUBGROUP, value);
}
int OVERLOADABLE sub_group_ballot_bit_extract(uint4 value, uint index) {
  return __spirv_GroupNonUniformBallotBitExtract(SPV_SCOPE_SUBGROUP, value, index);
}
uint OVERLOADABLE sub_group_ballot_bit_count(uint4 value) {
  return __spirv_GroupNonUniformBallotBitCount(SPV_SCOPE_SUBGROUP, SPV_REDUCE, value);
}
uint OVERLOADABLE sub_group_ballot_inclusive_scan(uint4 value) {
  return __spirv_GroupNonUniformBallotBitCount(SPV_SCOPE_SUBGROUP, SPV_INCLUSIVE_SCAN, value);
}
uint OVERLOADABLE sub_group_ballot_exclusive_scan(uint4 value) {
  return __spirv_GroupNonUniformBallotBitCount(SPV_SCOPE_SUBGROUP, SPV_EXCLUSIVE_SCAN, value);
}
uint OVERLOADABLE sub_group_ballot_find_lsb(uint4 value) {
  return __spirv_GroupNonUniformBallotFindLSB(SPV_SCOPE_SUBGROUP, value);
}
uint OVERLOADABLE sub_group_ballot_find_msb(uint4 value) {
  return __spirv_GroupNonUniformBallotFindMSB(SPV_SCOPE_SUBGROUP, value);
}

// Bit i of each 128-bit mask stands for sub-group local id i; as
// cl_khr_subgroup_ballot says, only bits below the maximum sub-group size are
// ever set.
static inline uint4 ids_below(uint n) {  // the mask of ids 0 .. n-1
  uint4 mask;
  for (uint word = 0; word < 4; ++word) {
    const uint first = word * 32;
    mask[word] = n >= first + 32 ? ~0u : n <= first ? 0u : (1u << (n - first)) - 1u;
  }
  return mask;
}
uint4 OVERLOADABLE get_sub_group_eq_mask(void) {
  return ids_below(get_sub_group_local_id() + 1) & ~ids_below(get_sub_group_local_id());
}
uint4 OVERLOADABLE get_sub_group_lt_mask(void) { return ids_below(get_sub_group_local_id()); }
uint4 OVERLOADABLE get_sub_group_le_mask(void) { return ids_below(get_sub_group_local_id() + 1); }
uint4 OVERLOADABLE get_sub_group_ge_mask(void) {
  return ids_below(get_max_sub_group_size()) & ~ids_below(get_sub_group_local_id());
}
uint4 OVERLOADABLE get_sub_group_gt_mask(void) {
  return ids_below(get_max_sub_group_size()) & ~ids_below(get_sub_group_local_id() + 1);
}
