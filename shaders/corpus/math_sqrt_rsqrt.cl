// sqrt (3 ulp in the full profile, 6 between two implementations) and
// rsqrt (2 ulp, so 4).
// @kernel roots
// @global 256
// @arg x global float[256] random(190, 0.0001, 10000)
// @arg s global float[256] zero
// @arg r global float[256] zero
// @check s ulp 6
// @check r ulp 4
// @bench-global 16777216
// @bench-arg x global float[16777216] random(190, 0.0001, 10000)
// @bench-arg s global float[16777216] zero
// @bench-arg r global float[16777216] zero
__kernel void roots(__global const float* x, __global float* s, __global float* r) {
  const int i = get_global_id(0);
  s[i] = sqrt(x[i]);
  r[i] = rsqrt(x[i]);
}
