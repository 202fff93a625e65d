#pragma OPENCL EXTENSION cl_khr_fp16 : enable
half __attribute__((overloadable)) __spirv_ocl_exp(half x);
kernel void k(global half* p) {
  int i = get_global_id(0);
  p[i] = __spirv_ocl_exp(p[i]);
}
