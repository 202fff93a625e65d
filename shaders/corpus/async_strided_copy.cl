// async_work_group_strided_copy: gathers every 4th int4 (a column of a
// 4-wide array of structs) into __local memory, and scatters back with a stride.
// @kernel strided
// @global 64
// @local 16
// @arg in global int4[256] random(242, -100, 100)
// @arg out global int4[256] zero
// @check out exact
// @bench-global 1048576
// @bench-arg in global int4[4194304] random(242, -100, 100)
// @bench-arg out global int4[4194304] zero
__kernel void strided(__global const int4* in, __global int4* out) {
  __local int4 column[16];
  const size_t base = get_group_id(0) * 64;
  event_t e = async_work_group_strided_copy(column, in + base + 1, 16, 4, 0);
  wait_group_events(1, &e);
  column[get_local_id(0)] += (int4)(get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + base + 2, column, 16, 4, 0);
  wait_group_events(1, &e);
}
