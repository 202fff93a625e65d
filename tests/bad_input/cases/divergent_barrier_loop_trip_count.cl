kernel void k(global int* p, local int* tile) {
  for (uint i = 0; i < get_local_id(0); ++i) {
    tile[i] = p[i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  p[get_global_id(0)] = tile[0];
}
