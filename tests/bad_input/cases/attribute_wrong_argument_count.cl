__attribute__((reqd_work_group_size(64, 1)))
kernel void k(global int* p) {
  p[0] = 1;
}
