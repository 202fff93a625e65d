kernel void k(global int* p) {
  p[0] = 1;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, 99);
}
