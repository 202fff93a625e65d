// 1-D work-item functions with a global offset: every id, size and count,
// one record per work-item.
// @kernel ids1d
// @global 96
// @local 32
// @offset 7
// @arg out global uint4[192] zero
// @check out exact
// @bench-global 8388608
// @bench-arg out global uint4[16777216] zero
__kernel void ids1d(__global uint4* out) {
  const size_t slot = get_global_id(0) - get_global_offset(0);
  out[2 * slot] = (uint4)((uint)get_global_id(0), (uint)get_local_id(0), (uint)get_group_id(0), (uint)get_global_size(0));
  out[2 * slot + 1] = (uint4)((uint)get_local_size(0), (uint)get_num_groups(0), (uint)get_global_offset(0), get_work_dim());
}
