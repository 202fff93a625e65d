// OpenCL C half load and store functions (OpenCL C 3.0, "Vector Data Load
// and Store Functions"): vload_half, vload_halfn, vloada_halfn,
// vstore_half, vstore_halfn and vstorea_halfn with their _rte, _rtz, _rtp
// and _rtn forms, from float and from double, n = 2, 3, 4, 8, 16, for every
// address space (loads also from __constant). clang 15 declares no scalar
// vloada_half or vstorea_half, so neither is defined.
//
// Half is only a storage format here: the conversions are integer
// arithmetic on the bits (and, for a subnormal half, an exact conversion of
// its 10-bit significand to float), read and written as ushort. Loading a half value
// and converting it with OpFConvert would need the Float16 capability for
// the value, and Vulkan lets a driver flush denormal inputs to zero and round
// conversions as it likes (the FPRoundingMode decoration does not survive to
// Vulkan); the bits are exact whatever the device does. A 16-bit element
// access is what ushort accesses already need (Int16, and
// storageBuffer16BitAccess in global memory); 32-bit words would need atomic
// read-modify-writes to store one half of a word safely. Accesses to
// __local and __private half memory through these ushort pointers reach the
// lowering as loads and stores of half values and bitcasts
// (tools/clc/retype_punned_accesses.h).
//
// Conversions follow IEEE 754: half to float is exact (subnormal halves are
// normal floats); float and double to half round as the suffix says (no
// suffix: to nearest even, the default rounding mode), directly from the
// source bits, so a double is rounded once. A NaN stays a NaN with its sign
// and top payload bits and becomes quiet, as a hardware conversion makes it.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVERLOADABLE __attribute__((overloadable))

// The rounding modes of the stores.
#define VKCL_RTE 0
#define VKCL_RTZ 1
#define VKCL_RTP 2
#define VKCL_RTN 3

// The conversions are not inlined here, so that each of the several hundred
// functions below stays a few calls in the library's bitcode; clc inlines
// everything once it links the library.
#define VKCL_HELPER static __attribute__((noinline))

// The conversions compute every case and select one result: no branches
// for a GPU to diverge on, and none to repeat for each component of
// vstore_half16. Hence no && and || (which branch), no calls to min and max
// (calls keep LLVM from turning branches into selects) and only values as
// the operands of ?:. They also keep LLVM from turning tests of one value
// into a switch, which it narrows to odd widths (i5) the translator rejects.

// The float with the value of the half whose bits are h.
VKCL_HELPER float half_bits_to_float(ushort h) {
  const uint sign = (uint)(h & 0x8000u) << 16;
  const uint magnitude = h & 0x7fffu;
  const uint mantissa = h & 0x3ffu;
  // Normal: the exponent rebiased from 15 to 127, the mantissa widened.
  const uint normal = (magnitude << 13) + ((127u - 15u) << 23);
  // Infinity, or a NaN made quiet.
  const uint quiet = mantissa != 0 ? 0x400000u : 0u;
  const uint special = 0x7f800000u | (mantissa << 13) | quiet;
  // Subnormal: mantissa * 2^-24, a normal float; both steps are exact (an
  // integer below 2^10, a product by a power of two that stays normal).
  const uint subnormal = as_uint((float)mantissa * 0x1p-24f);
  const uint finite = magnitude >= 0x400u ? normal : subnormal;
  const uint nonzero = magnitude >= 0x7c00u ? special : finite;
  const uint result = magnitude != 0 ? nonzero : 0u;
  return as_float(sign | result);
}

// Whether rounding in `mode` adds one unit to a truncated magnitude whose
// last bit is `odd`, given how the bits below it compare with half a unit.
static inline bool rounds_up(int mode, bool negative, bool odd, bool above_half, bool at_half, bool inexact) {
  const bool nearest = above_half | (at_half & odd);
  const bool up = inexact & !negative;
  const bool down = inexact & negative;
  const bool directed = mode == VKCL_RTP ? up : down;
  const bool away = mode == VKCL_RTE ? nearest : directed;
  return mode == VKCL_RTZ ? false : away;
}

// The bits of a finite magnitude of 2^16 or more: infinity where the
// rounding goes away from zero, else the largest finite half.
static inline uint overflow_bits(int mode, bool negative) {
  const bool up = mode == VKCL_RTP ? !negative : negative;
  const bool infinite = mode == VKCL_RTE ? true : mode == VKCL_RTZ ? false : up;
  return infinite ? 0x7c00u : 0x7bffu;
}

// The bits of the half nearest x, ties to even: what vstore_half and
// vstorea_halfn without a suffix do, and most stores are. The same result as
// the general conversion below in about half its instructions: rounding to
// nearest even is adding half a unit less one, plus the last kept bit, and
// shifting; a carry into the exponent, up to infinity, is then right by
// itself. Subnormal halves shift the significand right by 126 - exponent
// (14 to 25 places; a float subnormal's 25 leave 0).
static inline ushort to_half_bits_rte(float x) {
  const uint bits = as_uint(x);
  const uint sign = (bits >> 16) & 0x8000u;
  const uint magnitude = bits & 0x7fffffffu;
  const uint exponent = magnitude >> 23;
  const uint normal = (magnitude - ((127u - 15u) << 23) + 0xfffu + ((magnitude >> 13) & 1u)) >> 13;
  const uint significand = (magnitude & 0x7fffffu) | (exponent != 0 ? 0x800000u : 0u);
  const uint places = 126u - exponent;
  const uint shift = exponent >= 126u - 25u ? places : 25u;
  const uint small = (significand + ((1u << (shift - 1u)) - 1u) + ((significand >> shift) & 1u)) >> shift;
  const uint in_range = exponent >= 127u + 16u ? 0x7c00u : normal;  // infinity too
  const uint finite = exponent >= 127u - 14u ? in_range : small;
  const uint nan = 0x7e00u | ((magnitude & 0x7fffffu) >> 13);  // quiet, with the top of the payload
  return (ushort)(sign | (magnitude > 0x7f800000u ? nan : finite));
}

// The bits of the half nearest x in rounding mode `mode`.
VKCL_HELPER ushort OVERLOADABLE to_half_bits(float x, int mode) {
  if (mode == VKCL_RTE) return to_half_bits_rte(x);  // a constant once inlined
  const uint bits = as_uint(x);
  const uint sign = (bits >> 16) & 0x8000u;
  const bool negative = sign != 0;
  const uint magnitude = bits & 0x7fffffffu;
  const uint exponent = magnitude >> 23;
  const uint mantissa = magnitude & 0x7fffffu;
  // A normal half (exponent >= 127 - 14): 10 of the 23 mantissa bits stay.
  // Rounding up may carry into the exponent, up to infinity (0x7c00), which
  // is then the right result.
  const bool normal = exponent >= 127u - 14u;
  const uint normal_truncated = ((exponent - (127u - 15u)) << 10) | (mantissa >> 13);
  const uint normal_rest = mantissa & 0x1fffu;
  // A subnormal half or zero, in units of 2^-24: the significand (a float
  // subnormal's exponent counts as 1) shifted right by 126 - exponent. From
  // 25 places on every bit is below half a unit, which a shift of 25 already
  // shows (the significand is below 2^24). Meaningless for normal halves.
  const uint hidden = exponent != 0 ? 0x800000u : 0u;
  const uint significand = mantissa | hidden;
  const uint places = 126u - exponent;
  const uint shift = exponent >= 126u - 25u ? places : 25u;
  const uint small_truncated = significand >> shift;
  const uint small_rest = significand & ((1u << shift) - 1u);
  const uint small_half = 1u << ((shift - 1u) & 31u);
  const uint truncated = normal ? normal_truncated : small_truncated;
  const uint rest = normal ? normal_rest : small_rest;
  const uint half_unit = normal ? 0x1000u : small_half;
  const bool up = rounds_up(mode, negative, (truncated & 1u) != 0, rest > half_unit, rest == half_unit, rest != 0);
  const uint rounded = truncated + (up ? 1u : 0u);
  const uint nan = 0x7e00u | (mantissa >> 13);  // quiet, with the top of the payload
  const uint overflow = overflow_bits(mode, negative);
  const uint in_range = exponent >= 127u + 16u ? overflow : rounded;
  const uint finite_or_infinity = magnitude == 0x7f800000u ? 0x7c00u : in_range;
  const uint result = magnitude > 0x7f800000u ? nan : finite_or_infinity;
  return (ushort)(sign | result);
}

// As for float, with 42 of the 52 mantissa bits dropped for a
// normal half, and a subnormal half's significand shifted right by
// 1051 - exponent, at most 54 places (the significand is below 2^53).
VKCL_HELPER ushort OVERLOADABLE to_half_bits(double x, int mode) {
  const ulong bits = as_ulong(x);
  const uint sign = (uint)(bits >> 48) & 0x8000u;
  const bool negative = sign != 0;
  const ulong magnitude = bits & 0x7fffffffffffffffUL;
  const uint exponent = (uint)(magnitude >> 52);
  const ulong mantissa = magnitude & 0xfffffffffffffUL;
  const bool normal = exponent >= 1023u - 14u;
  const uint normal_truncated = ((exponent - (1023u - 15u)) << 10) | (uint)(mantissa >> 42);
  const ulong normal_rest = mantissa & 0x3ffffffffffUL;
  const ulong hidden = exponent != 0 ? 0x10000000000000UL : 0UL;
  const ulong significand = mantissa | hidden;
  const uint places = 1051u - exponent;
  const uint shift = exponent >= 1051u - 54u ? places : 54u;
  const uint small_truncated = (uint)(significand >> shift);
  const ulong small_rest = significand & ((1UL << shift) - 1UL);
  const ulong small_half = 1UL << ((shift - 1u) & 63u);
  const uint truncated = normal ? normal_truncated : small_truncated;
  const ulong rest = normal ? normal_rest : small_rest;
  const ulong half_unit = normal ? 0x20000000000UL : small_half;
  const bool up = rounds_up(mode, negative, (truncated & 1u) != 0, rest > half_unit, rest == half_unit, rest != 0);
  const uint rounded = truncated + (up ? 1u : 0u);
  const uint nan = 0x7e00u | (uint)(mantissa >> 42);
  const uint overflow = overflow_bits(mode, negative);
  const uint in_range = exponent >= 1023u + 16u ? overflow : rounded;
  const uint finite_or_infinity = magnitude == 0x7ff0000000000000UL ? 0x7c00u : in_range;
  const uint result = magnitude > 0x7ff0000000000000UL ? nan : finite_or_infinity;
  return (ushort)(sign | result);
}

// ---------------------------------------------------------------------------
// Loads: vload_half reads p[offset], vload_halfn the n halves from
// p + offset * n, vloada_halfn from p + offset * n rounded up to a power of
// two (offset * 4 for n = 3). The n conversions are one helper per width and
// address space that both call (not inlined here either).

#define LOAD_HALVES(N, AS)                                                          \
  VKCL_HELPER float##N OVERLOADABLE load_halves##N(const AS ushort* q) {           \
    float##N r;                                                                     \
    for (int i = 0; i < N; ++i) r[i] = half_bits_to_float(q[i]);                    \
    return r;                                                                       \
  }
#define VLOAD_HALFN(NAME, N, STRIDE, AS)                                            \
  float##N OVERLOADABLE NAME(size_t offset, const AS half* p) {                    \
    return load_halves##N((const AS ushort*)p + offset * STRIDE);                   \
  }
#define VLOAD_HALF_AS(AS)                                                                            \
  float OVERLOADABLE vload_half(size_t offset, const AS half* p) {                                  \
    return half_bits_to_float(((const AS ushort*)p)[offset]);                                        \
  }                                                                                                  \
  LOAD_HALVES(2, AS) LOAD_HALVES(3, AS) LOAD_HALVES(4, AS) LOAD_HALVES(8, AS) LOAD_HALVES(16, AS)    \
  VLOAD_HALFN(vload_half2, 2, 2, AS) VLOAD_HALFN(vload_half3, 3, 3, AS)                              \
  VLOAD_HALFN(vload_half4, 4, 4, AS) VLOAD_HALFN(vload_half8, 8, 8, AS)                              \
  VLOAD_HALFN(vload_half16, 16, 16, AS)                                                              \
  VLOAD_HALFN(vloada_half2, 2, 2, AS) VLOAD_HALFN(vloada_half3, 3, 4, AS)                            \
  VLOAD_HALFN(vloada_half4, 4, 4, AS) VLOAD_HALFN(vloada_half8, 8, 8, AS)                            \
  VLOAD_HALFN(vloada_half16, 16, 16, AS)

VLOAD_HALF_AS(__global)
VLOAD_HALF_AS(__local)
VLOAD_HALF_AS(__constant)
VLOAD_HALF_AS(__private)
VLOAD_HALF_AS()

// ---------------------------------------------------------------------------
// Stores: the same addresses, from float or double, in each rounding mode.
// One helper per type, width and address space takes the mode; the
// functions of the five modes call it.

#define STORE_HALVES(T, AS)                                                         \
  VKCL_HELPER void OVERLOADABLE store_halves(T data, AS ushort* q, int mode) {      \
    q[0] = to_half_bits(data, mode);                                                \
  }
#define STORE_HALVESN(T, N, AS)                                                     \
  VKCL_HELPER void OVERLOADABLE store_halves(T##N data, AS ushort* q, int mode) {   \
    for (int i = 0; i < N; ++i) q[i] = to_half_bits(data[i], mode);                 \
  }
#define VSTORE_HALF(NAME, T, MODE, AS)                                              \
  void OVERLOADABLE NAME(T data, size_t offset, AS half* p) {                       \
    store_halves(data, (AS ushort*)p + offset, MODE);                               \
  }
#define VSTORE_HALFN(NAME, T, N, STRIDE, MODE, AS)                                  \
  void OVERLOADABLE NAME(T##N data, size_t offset, AS half* p) {                    \
    store_halves(data, (AS ushort*)p + offset * STRIDE, MODE);                      \
  }
// Every width of vstore_half<SUFFIX> and vstorea_half<SUFFIX>.
#define VSTORE_HALF_MODE(SUFFIX, T, MODE, AS)                                       \
  VSTORE_HALF(vstore_half##SUFFIX, T, MODE, AS)                                     \
  VSTORE_HALFN(vstore_half2##SUFFIX, T, 2, 2, MODE, AS)                             \
  VSTORE_HALFN(vstore_half3##SUFFIX, T, 3, 3, MODE, AS)                             \
  VSTORE_HALFN(vstore_half4##SUFFIX, T, 4, 4, MODE, AS)                             \
  VSTORE_HALFN(vstore_half8##SUFFIX, T, 8, 8, MODE, AS)                             \
  VSTORE_HALFN(vstore_half16##SUFFIX, T, 16, 16, MODE, AS)                          \
  VSTORE_HALFN(vstorea_half2##SUFFIX, T, 2, 2, MODE, AS)                            \
  VSTORE_HALFN(vstorea_half3##SUFFIX, T, 3, 4, MODE, AS)                            \
  VSTORE_HALFN(vstorea_half4##SUFFIX, T, 4, 4, MODE, AS)                            \
  VSTORE_HALFN(vstorea_half8##SUFFIX, T, 8, 8, MODE, AS)                            \
  VSTORE_HALFN(vstorea_half16##SUFFIX, T, 16, 16, MODE, AS)
#define VSTORE_HALF_TYPE(T, AS)                                                     \
  STORE_HALVES(T, AS) STORE_HALVESN(T, 2, AS) STORE_HALVESN(T, 3, AS)               \
  STORE_HALVESN(T, 4, AS) STORE_HALVESN(T, 8, AS) STORE_HALVESN(T, 16, AS)          \
  VSTORE_HALF_MODE(, T, VKCL_RTE, AS)                                               \
  VSTORE_HALF_MODE(_rte, T, VKCL_RTE, AS)                                           \
  VSTORE_HALF_MODE(_rtz, T, VKCL_RTZ, AS)                                           \
  VSTORE_HALF_MODE(_rtp, T, VKCL_RTP, AS)                                           \
  VSTORE_HALF_MODE(_rtn, T, VKCL_RTN, AS)
#define VSTORE_HALF_AS(AS) VSTORE_HALF_TYPE(float, AS) VSTORE_HALF_TYPE(double, AS)

VSTORE_HALF_AS(__global)
VSTORE_HALF_AS(__local)
VSTORE_HALF_AS(__private)
VSTORE_HALF_AS()
