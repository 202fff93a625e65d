// The 2-D work-item functions with a global offset, packed into one int per work-item.
// @kernel ids2d
// @global 16,12
// @local 4,3
// @offset 2,5
// @arg out global int4[192] zero
// @check out exact
// @bench-global 4096,3072
// @bench-arg out global int4[12582912] zero
__kernel void ids2d(__global int4* out) {
  const size_t x = get_global_id(0) - get_global_offset(0);
  const size_t y = get_global_id(1) - get_global_offset(1);
  const size_t i = y * get_global_size(0) + x;
  out[i] = (int4)((int)(get_global_id(0) * 100 + get_global_id(1)),
                  (int)(get_local_id(0) * 100 + get_local_id(1)),
                  (int)(get_group_id(0) * 100 + get_group_id(1)),
                  (int)(get_num_groups(0) * 1000 + get_num_groups(1) * 100 + get_local_size(0) * 10 + get_local_size(1)));
}
