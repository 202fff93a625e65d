// half_divide for float, every vector width (OpenCL: <= 8192 ulp): the
// division itself, so that tools/clc/scale_huge_divisors keeps it right for
// divisors above 2^126, where a device that flushes subnormals would make
// OpFDiv's reciprocal 0 (lowered as OpFDiv directly, it gave 0 for
// 2^114 / 2^127 on NVIDIA's driver). native_divide stays OpFDiv
// (spirv/lower_opencl_std.cpp): its accuracy is the device's.

#include "math/vkcl_math.h"

float VKCL_OVERLOAD half_divide(float x, float y) { return x / y; }

VKCL_VECTORIZE_2(float, half_divide, float, float)
