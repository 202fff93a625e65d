kernel void k(global int* p, local int* tile, uint n) {
  if (get_global_id(0) >= n)
    return;
  tile[get_local_id(0)] = p[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = tile[0];
}
