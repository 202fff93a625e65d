kernel void k(global int* p) {
  if (get_sub_group_local_id() == 0)
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = 1;
}
