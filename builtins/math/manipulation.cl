// The functions that take floating-point numbers apart or step through
// them, for float and double, every vector width, all exact: frexp, ldexp,
// ilogb, logb, nan, nextafter, maxmag and minmag. (copysign and fabs are bit
// operations in spirv/lower_opencl_std.)

#include "math/vkcl_math.h"

// frexp, ldexp, ilogb, logb, nextafter, maxmag and minmag are written once
// in manipulation.inc, for float and double (vkcl_math_types.inc).
//
// Numbers are taken apart and compared on their bits, never by float
// arithmetic on a possibly subnormal x or by float comparisons (ldexp
// multiplies normal numbers only): on a device that flushes float subnormals
// (NVIDIA's; vkcl_math.h), x * 2^32 is 0 and x == 0 is true for a subnormal
// x, and OpenCL wants these functions exact for every input the device keeps
// (OpenCL C 3.0 §7.5.3: else the result for the flushed input).

#define FREXP_SPACE(T, AS)                                                                       \
  VKCL_OUT_VIA_PRIVATE(T, frexp, T, int, AS)                                                     \
  VKCL_VECTORIZE_OUT(T, frexp, T, int, AS)

#define VKCL_BODY "math/manipulation.inc"
#include "math/vkcl_math_types.inc"

// nan(nancode): a quiet NaN carrying nancode in its significand.
float VKCL_OVERLOAD nan(uint nancode) { return as_float(0x7fc00000u | (nancode & 0x3fffffu)); }
VKCL_VECTORIZE_1(float, nan, uint)

#ifdef VKCL_FP64
double VKCL_OVERLOAD nan(ulong nancode) {
  return as_double(0x7ff8000000000000ul | (nancode & 0x7fffffffffffful));
}
VKCL_VECTORIZE_1(double, nan, ulong)
#endif
