// Sub-group reduction (cl_khr_subgroups): sub_group_reduce_add, then one
// atomic per sub-group; the total does not depend on the sub-group size.
// @kernel sg_sum
// @std CL3.0
// @requires __opencl_c_subgroups
// @global 1024
// @local 64
// @arg values global int[1024] random(250, -100, 100)
// @arg total global int[2] zero
// @check total exact
// @bench-global 16777216
// @bench-arg values global int[16777216] random(250, -100, 100)
__kernel void sg_sum(__global const int* values, __global int* total) {
  const int v = values[get_global_id(0)];
  int sum = sub_group_reduce_add(v);
  int biggest = sub_group_reduce_max(v);
  if (get_sub_group_local_id() == 0) {
    atomic_add(&total[0], sum);
    atomic_max(&total[1], biggest);
  }
}
