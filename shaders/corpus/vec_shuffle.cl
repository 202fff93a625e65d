// shuffle with constant and data-dependent masks (mask components are
// taken modulo the source width).
// @kernel shuffles
// @global 128
// @arg in global int4[128] random(133, -1000, 1000)
// @arg masks global uint4[128] random(134, 0, 255)
// @arg out global int4[256] zero
// @check out exact
// @bench-global 4194304
// @bench-arg in global int4[4194304] random(133, -1000, 1000)
// @bench-arg masks global uint4[4194304] random(134, 0, 255)
// @bench-arg out global int4[8388608] zero
__kernel void shuffles(__global const int4* in, __global const uint4* masks, __global int4* out) {
  int4 v = in[get_global_id(0)];
  int4 reversed = shuffle(v, (uint4)(3, 2, 1, 0));
  int4 chosen = shuffle(v, masks[get_global_id(0)]);
  out[2 * get_global_id(0)] = reversed;
  out[2 * get_global_id(0) + 1] = chosen;
}
