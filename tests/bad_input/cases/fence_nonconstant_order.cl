kernel void k(global int* p, int order) {
  p[0] = 1;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, order, memory_scope_device);
}
