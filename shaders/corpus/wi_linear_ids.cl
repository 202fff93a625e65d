// OpenCL C 2.0 work-item functions: get_global_linear_id,
// get_local_linear_id and get_enqueued_local_size, in 2-D with an offset.
// @kernel linear_ids
// @std CL3.0
// @global 12,8
// @local 4,2
// @offset 3,1
// @arg out global uint4[96] zero
// @check out exact
// @bench-global 4096,2048
// @bench-arg out global uint4[8388608] zero
__kernel void linear_ids(__global uint4* out) {
  const size_t g = get_global_linear_id();
  out[g] = (uint4)((uint)g, (uint)get_local_linear_id(), (uint)(get_enqueued_local_size(0) * 10 + get_enqueued_local_size(1)),
                   (uint)(get_global_id(1) * 100 + get_global_id(0)));
}
