void publish(local int* tile, global int* p) {
  tile[0] = p[0];
  barrier(CLK_LOCAL_MEM_FENCE);
}
kernel void k(global int* p, local int* tile) {
  if (get_local_id(0) < 32)
    publish(tile, p);
  p[get_global_id(0)] = tile[0];
}
