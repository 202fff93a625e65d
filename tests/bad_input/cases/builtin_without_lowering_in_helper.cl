#pragma OPENCL EXTENSION cl_khr_fp16 : enable
half4 __attribute__((overloadable)) __spirv_ocl_rsqrt(half4 x);
half4 scale(half4 v) {
  return v * __spirv_ocl_rsqrt(v);
}
kernel void k(global half4* p) {
  p[get_global_id(0)] = scale(p[get_global_id(0)]);
}
