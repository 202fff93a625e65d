// half as a storage format (no cl_khr_fp16 needed): vload_half and
// vstore_half convert to and from float, with round-to-nearest-even stores.
// @kernel half_storage
// @global 256
// @arg in global half[256] random(105, -100, 100)
// @arg out global half[256] zero
// @arg wide global float[256] zero
// @check out exact
// @check wide exact
// @bench-global 16777216
// @bench-arg in global half[16777216] random(105, -100, 100)
// @bench-arg out global half[16777216] zero
// @bench-arg wide global float[16777216] zero
__kernel void half_storage(__global const half* in, __global half* out, __global float* wide) {
  const int i = get_global_id(0);
  float v = vload_half(i, in);
  wide[i] = v;
  vstore_half(v * 3.0f - 1.0f, i, out);
}
