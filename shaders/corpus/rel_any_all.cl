// any and all (the most significant bit of each component), on int4
// comparisons and on char4 and short2 raw data.
// @kernel any_all
// @global 128
// @arg a global int4[128] random(213, -5, 5)
// @arg c global char4[128] bits(214)
// @arg out global int4[128] zero
// @check out exact
// @bench-global 4194304
// @bench-arg a global int4[4194304] random(213, -5, 5)
// @bench-arg c global char4[4194304] bits(214)
// @bench-arg out global int4[4194304] zero
__kernel void any_all(__global const int4* a, __global const char4* c, __global int4* out) {
  const int i = get_global_id(0);
  int4 v = a[i];
  char4 w = c[i];
  out[i] = (int4)(any(v > 3), all(v > -5), any(w), all(w | (char4)(-128))) + 2 * any(as_short2(w));
}
