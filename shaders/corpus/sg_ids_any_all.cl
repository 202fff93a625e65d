// The sub-group work-item functions and sub_group_any/all, folded into
// size-independent facts: lanes count up to get_sub_group_size, the sizes
// of all sub-groups add up to the local size, and a predicate true
// everywhere is seen by all().
// @kernel sg_ids
// @std CL3.0
// @requires __opencl_c_subgroups
// @global 256
// @local 64
// @arg values global int[256] random(252, 0, 100)
// @arg out global int4[256] zero
// @arg sizes global uint[4] zero
// @check out exact
// @check sizes exact
// @bench-global 8388608
// @bench-arg values global int[8388608] random(252, 0, 100)
// @bench-arg out global int4[8388608] zero
// @bench-arg sizes global uint[131072] zero
__kernel void sg_ids(__global const int* values, __global int4* out, __global uint* sizes) {
  const int v = values[get_global_id(0)];
  const uint lane = get_sub_group_local_id();
  if (lane == 0) atomic_add(&sizes[get_group_id(0)], get_sub_group_size());
  out[get_global_id(0)] = (int4)(lane < get_sub_group_size(), get_sub_group_size() <= get_max_sub_group_size(),
                                 sub_group_all(v >= 0), sub_group_any(v > 1000) + (get_sub_group_id() < get_num_sub_groups()));
}
