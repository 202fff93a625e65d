// reqd_work_group_size(16, 4, 1): the local size is fixed by the kernel,
// and get_local_size must report it.
// @kernel fixed_size
// @global 32,8
// @local 16,4
// @arg out global int[256] zero
// @check out exact
// @bench-skip the row width (32) is a constant in the code, and the stored ids (x 1000) overflow int past 21,474 rows: too little work to time
__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void fixed_size(__global int* out) {
  __local int tile[4][16];
  tile[get_local_id(1)][get_local_id(0)] = get_global_id(0) + 100 * get_global_id(1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * 32 + get_global_id(0)] =
      tile[3 - get_local_id(1)][15 - get_local_id(0)] * 1000 + get_local_size(0) * 10 + get_local_size(1);
}
