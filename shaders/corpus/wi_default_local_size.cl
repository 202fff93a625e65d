// No local size given: each implementation picks one. Only
// work-group-independent results are compared (the global id and size).
// @kernel any_local_size
// @global 1000
// @arg out global uint2[1000] zero
// @check out exact
// @bench-global 16000000
// @bench-arg out global uint2[16000000] zero
__kernel void any_local_size(__global uint2* out) {
  out[get_global_id(0)] = (uint2)((uint)(get_global_id(0) * 3), (uint)get_global_size(0));
}
