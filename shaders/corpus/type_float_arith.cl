// Single-precision +, -, * (correctly rounded) and / (2.5 ulp in the full
// profile, so 5 between two implementations), with contraction off so that
// no a*b+c becomes an fma.
// @kernel float_arith
// @global 512
// @arg a global float[512] random(101, -1000, 1000)
// @arg b global float[512] random(102, 0.001, 1000)
// @arg sum global float[512] zero
// @arg prod global float[512] zero
// @arg quot global float[512] zero
// @check sum exact
// @check prod exact
// @check quot ulp 5
// @bench-global 8388608
// @bench-arg a global float[8388608] random(101, -1000, 1000)
// @bench-arg b global float[8388608] random(102, 0.001, 1000)
// @bench-arg sum global float[8388608] zero
// @bench-arg prod global float[8388608] zero
// @bench-arg quot global float[8388608] zero
#pragma OPENCL FP_CONTRACT OFF
__kernel void float_arith(__global const float* a, __global const float* b, __global float* sum, __global float* prod,
                          __global float* quot) {
  const int i = get_global_id(0);
  float x = a[i], y = b[i];
  sum[i] = (x + y) - x * 0.5f;
  prod[i] = x * y;
  quot[i] = x / y;
}
