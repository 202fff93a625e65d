// async_work_group_copy from global to __local memory, wait_group_events,
// then a reversed copy out: the usual staging idiom.
// @kernel stage
// @global 256
// @local 64
// @arg in global float[256] randint(240, -100, 100)
// @arg out global float[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global float[16777216] randint(240, -100, 100)
// @bench-arg out global float[16777216] zero
__kernel void stage(__global const float* in, __global float* out) {
  __local float tile[64];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[63 - get_local_id(0)] * 2.0f;
}
