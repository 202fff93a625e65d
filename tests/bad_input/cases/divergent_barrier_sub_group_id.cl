kernel void k(global int* p) {
  if (get_sub_group_id() == 0)
    barrier(CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = 1;
}
