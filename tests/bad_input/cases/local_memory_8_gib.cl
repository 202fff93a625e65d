kernel void k(global char* p) {
  local char huge[1ul << 33];
  huge[get_global_id(0)] = p[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = huge[5];
}
