kernel void k(global int* p) {
  p[get_global_id(0)] = work_group_scan_inclusive_max(p[get_global_id(0)]);
}
