kernel void k(global int* p, int scope) {
  p[0] = 1;
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, scope);
}
