// OpenCL C relational functions (OpenCL C 6.15.6) that are not one SPIR-V
// instruction for every width: any and all on 8- and 16-component vectors,
// from their halves (Vulkan has no such vectors; the translator's OpAny and
// OpAll of 2, 3 and 4 components stay). The rest of the family is the
// translator's and spirv/lower_opencl_std's (builtins/LOWERING.md).

#include "math/vkcl_math.h"

// Declaring any/all here hides clang's own declarations of the other
// widths, hence these (the translator lowers them).
#define ANY_ALL(T)                                                                  \
  int VKCL_OVERLOAD any(T x);                                                       \
  int VKCL_OVERLOAD any(T##2 x);                                                    \
  int VKCL_OVERLOAD any(T##3 x);                                                    \
  int VKCL_OVERLOAD any(T##4 x);                                                    \
  int VKCL_OVERLOAD all(T x);                                                       \
  int VKCL_OVERLOAD all(T##2 x);                                                    \
  int VKCL_OVERLOAD all(T##3 x);                                                    \
  int VKCL_OVERLOAD all(T##4 x);                                                    \
  int VKCL_OVERLOAD any(T##8 x) { return any(x.lo) | any(x.hi); }                  \
  int VKCL_OVERLOAD any(T##16 x) { return any(x.lo) | any(x.hi); }                 \
  int VKCL_OVERLOAD all(T##8 x) { return all(x.lo) & all(x.hi); }                  \
  int VKCL_OVERLOAD all(T##16 x) { return all(x.lo) & all(x.hi); }

ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)
