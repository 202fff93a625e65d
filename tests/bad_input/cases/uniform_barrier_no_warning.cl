kernel void k(global int* p, local int* tile, int flag) {
  if (get_group_id(0) == 0) {
    tile[get_local_id(0)] = p[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (get_local_id(0) < s)
      tile[get_local_id(0)] += tile[get_local_id(0) + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (flag)
    barrier(CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = tile[0];
}
