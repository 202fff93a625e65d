kernel void k(global int* p) {
  p[0] = get_kernel_work_group_size(^{});
}
