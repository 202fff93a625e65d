// Sub-group scans and broadcast whose per-work-item results are the same
// for any sub-group size: the inclusive minus the exclusive scan is the
// value itself, and broadcasting lane 0's id gives the first id of the sub-group.
// @kernel sg_scan
// @std CL3.0
// @requires __opencl_c_subgroups
// @global 256
// @local 64
// @arg values global int[256] random(251, -100, 100)
// @arg out global int2[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg values global int[16777216] random(251, -100, 100)
// @bench-arg out global int2[16777216] zero
__kernel void sg_scan(__global const int* values, __global int2* out) {
  const int v = values[get_global_id(0)];
  int inclusive = sub_group_scan_inclusive_add(v);
  int exclusive = sub_group_scan_exclusive_add(v);
  uint first = sub_group_broadcast((uint)get_local_id(0), 0);
  out[get_global_id(0)] = (int2)(inclusive - exclusive, (int)(get_local_id(0) - first - get_sub_group_local_id()));
}
