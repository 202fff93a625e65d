// round, fract, modf and fdim for float and double, every vector width, and
// the __global/__local/__private/generic forms of fract's and modf's
// pointer. All exact. ceil, floor, rint and trunc are GLSL.std.450 Ceil,
// Floor, RoundEven and Trunc (spirv/lower_opencl_std); GLSL's Round rounds
// halfway cases in a direction of the implementation's choosing, so round()
// is here. Signs of zero come from copysign (bit operations), never from
// what a driver that may "ignore the sign of a zero" computes.

#include "math/vkcl_math.h"

// fract and modf tell zeros and subnormals apart on the bits: on a device
// that flushes float subnormals (vkcl_math.h), x == 0 holds for a subnormal
// x, and floor(x) may or may not flush it (NVIDIA's keeps it: floor(-x) =
// -1), so fract(-x) came back as -x with *iptr = -1, which is neither
// fract's result for x nor for -0.

#define OUT_SPACE(T, F, AS)                                                                      \
  VKCL_OUT_VIA_PRIVATE(T, F, T, T, AS)                                                           \
  VKCL_VECTORIZE_OUT(T, F, T, T, AS)
#define DEFINE_OUT_SPACES(T, F) VKCL_FOR_EACH_OUT_SPACE(OUT_SPACE, T, F)

// The largest number below 1.
#define ONE_BELOW_ONE_F 0x1.fffffep-1f
#define ONE_BELOW_ONE_D 0x1.fffffffffffffp-1

#define VKCL_BODY "math/rounding.inc"
#include "math/vkcl_math_types.inc"
