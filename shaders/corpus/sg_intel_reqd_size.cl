// intel_reqd_sub_group_size(8) (cl_intel_required_subgroup_size): the
// kernel asks for sub-groups of 8, which a device honours or refuses; where
// it is honoured, get_sub_group_size() and get_max_sub_group_size() are 8.
// @kernel fixed_sub_groups
// @std CL3.0
// @requires cl_intel_required_subgroup_size
// @global 128
// @local 32
// @arg out global uint2[128] zero
// @check out exact
// @bench-global 16777216
// @bench-arg out global uint2[16777216] zero
__kernel __attribute__((intel_reqd_sub_group_size(8))) void fixed_sub_groups(__global uint2* out) {
  out[get_global_id(0)] = (uint2)(get_max_sub_group_size(), get_sub_group_local_id() + 100 * get_sub_group_id());
}
