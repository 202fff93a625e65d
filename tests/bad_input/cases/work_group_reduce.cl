kernel void k(global int* p) {
  p[get_global_id(0)] = work_group_reduce_add(p[get_global_id(0)]);
}
