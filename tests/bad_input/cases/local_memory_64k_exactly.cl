kernel void k(global float* p) {
  local float tile[16384];
  tile[get_local_id(0)] = p[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = tile[0];
}
