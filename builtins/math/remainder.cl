// fmod, remainder and remquo for float and double, every vector width, with
// remquo's pointer in any address space. All exact (OpenCL: 0 ulp): the
// remainder is computed by long division of the significands in integers,
// one quotient bit per step (at most 277 steps for float, 2098 for double),
// and put together as a float from its bits.
// remquo gives the low 7 bits of the quotient, with the sign of x / y.

#include "math/vkcl_math.h"

// Everything is done in integers, the result included (encode), never with
// float arithmetic on the operands: on a device that flushes float
// subnormals (vkcl_math.h) a subnormal operand or remainder would be 0 (and
// remainder(x, y) of the largest subnormal x and y = 2^-126 came back as x,
// remquo(2^-126, that x) as 0 with quotient 2, neither the right result nor
// the flushed inputs').

#define REMQUO_SPACE(T, AS)                                                                      \
  VKCL_OUT_VIA_PRIVATE_2(T, remquo, T, T, int, AS)                                               \
  VKCL_VECTORIZE_2_OUT(T, remquo, T, T, int, AS)

#define VKCL_BODY "math/remainder.inc"
#include "math/vkcl_math_types.inc"
