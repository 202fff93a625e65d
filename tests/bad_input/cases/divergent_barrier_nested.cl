kernel void k(global int* p, local int* tile, int flag) {
  if (get_local_id(0) % 2 == 0) {
    if (flag) {
      tile[0] = p[0];
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  p[get_global_id(0)] = tile[0];
}
