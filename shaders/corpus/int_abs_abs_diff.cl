// abs and abs_diff (unsigned results, exact even for INT_MIN).
// @kernel absolute
// @global 256
// @arg a global int[256] bits(166)
// @arg b global int[256] bits(167)
// @arg c global char[256] bits(168)
// @arg out global uint4[256] zero
// @check out exact
// @bench-global 8388608
// @bench-arg a global int[8388608] bits(166)
// @bench-arg b global int[8388608] bits(167)
// @bench-arg c global char[8388608] bits(168)
// @bench-arg out global uint4[8388608] zero
__kernel void absolute(__global const int* a, __global const int* b, __global const char* c, __global uint4* out) {
  const int i = get_global_id(0);
  out[i] = (uint4)(abs(a[i]), abs_diff(a[i], b[i]), abs(c[i]), abs_diff(c[i], (char)-128));
}
