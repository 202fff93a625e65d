// async_work_group_copy from __local to global memory after the
// work-group fills the __local buffer.
// @kernel write_back
// @global 256
// @local 32
// @arg in global int[256] random(241, -1000, 1000)
// @arg out global int[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(241, -1000, 1000)
// @bench-arg out global int[16777216] zero
__kernel void write_back(__global const int* in, __global int* out) {
  __local int tile[32];
  const int lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)] * 3 + lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + get_group_id(0) * 32, tile, 32, 0);
  wait_group_events(1, &e);
}
