// half arithmetic with cl_khr_fp16: half scalars and half4 vectors.
// @kernel half_arith
// @requires cl_khr_fp16
// @global 128
// @arg a global half4[128] randint(106, -20, 20)
// @arg b global half4[128] randint(107, -20, 20)
// @arg out global half4[128] zero
// @check out exact
// @bench-global 8388608
// @bench-arg a global half4[8388608] randint(106, -20, 20)
// @bench-arg b global half4[8388608] randint(107, -20, 20)
// @bench-arg out global half4[8388608] zero
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_arith(__global const half4* a, __global const half4* b, __global half4* out) {
  const int i = get_global_id(0);
  half4 x = a[i], y = b[i];
  half s = x.x + y.w;
  out[i] = x * y + (half4)(s);
}
