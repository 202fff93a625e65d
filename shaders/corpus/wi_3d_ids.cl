// 3-D work-item functions: ids, sizes and group counts in all three dimensions.
// @kernel ids3d
// @global 8,6,4
// @local 4,3,2
// @arg out global int4[576] zero
// @check out exact
// @bench-global 256,192,64
// @bench-arg out global int4[9437184] zero
__kernel void ids3d(__global int4* out) {
  const size_t flat = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
  out[3 * flat] = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), get_work_dim());
  out[3 * flat + 1] = (int4)(get_local_id(0), get_local_id(1), get_local_id(2),
                             get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2));
  out[3 * flat + 2] = (int4)(get_group_id(0), get_group_id(1), get_group_id(2),
                             get_num_groups(0) * 100 + get_num_groups(1) * 10 + get_num_groups(2));
}
