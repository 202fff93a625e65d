// The math constants and limits macros (M_PI_F, M_E_F, FLT_EPSILON,
// MAXFLOAT, INFINITY, ...) and integer limits (INT_MAX, UCHAR_MAX, ...).
// @kernel constants
// @global 1
// @arg f global float[8] zero
// @arg n global long[8] zero
// @check f exact
// @check n exact
// @bench-skip one work-item writing constants: there is no size to scale
__kernel void constants(__global float* f, __global long* n) {
  f[0] = M_PI_F;
  f[1] = M_E_F;
  f[2] = M_SQRT2_F;
  f[3] = FLT_EPSILON;
  f[4] = MAXFLOAT;
  f[5] = -INFINITY;
  f[6] = FLT_MIN;
  f[7] = M_LN2_F;
  n[0] = INT_MAX;
  n[1] = INT_MIN;
  n[2] = UCHAR_MAX;
  n[3] = SHRT_MIN;
  n[4] = LONG_MAX;
  n[5] = CHAR_BIT;
  n[6] = FLT_MANT_DIG;
  n[7] = UINT_MAX;
}
