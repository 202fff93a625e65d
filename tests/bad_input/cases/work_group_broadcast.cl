kernel void k(global int* p) {
  p[get_global_id(0)] = work_group_broadcast(p[get_global_id(0)], 0);
}
