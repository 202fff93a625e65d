kernel void k(global int* p) {
  p[0] = 1;
  work_group_barrier(CLK_IMAGE_MEM_FENCE, memory_scope_device);
}
