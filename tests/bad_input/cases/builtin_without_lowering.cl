#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half* p) {
  int i = get_global_id(0);
  p[i] = exp(p[i]);
}
