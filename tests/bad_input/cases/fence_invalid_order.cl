kernel void k(global int* p) {
  p[0] = 1;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, 17, memory_scope_device);
}
