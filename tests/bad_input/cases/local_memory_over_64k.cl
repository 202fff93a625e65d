kernel void k(global float* p) {
  local float big[32768];
  big[get_local_id(0)] = p[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = big[0];
}
