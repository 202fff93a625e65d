// work_group_size_hint and vec_type_hint: hints that change nothing
// observable, which the compiler must accept.
// @kernel hinted
// @global 256
// @local 64
// @arg in global float4[256] randint(141, -100, 100)
// @arg out global float4[256] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global float4[8388608] randint(141, -100, 100)
// @bench-arg out global float4[8388608] zero
__kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4)))
void hinted(__global const float4* in, __global float4* out) {
  out[get_global_id(0)] = in[get_global_id(0)].wzyx + (float4)(get_local_size(0));
}
