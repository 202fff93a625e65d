kernel void k(global int* p) {
  p[0] = work_group_any(p[get_global_id(0)]);
}
