// exp and log (full profile: 3 ulp each; two implementations may differ by 6).
// @kernel exp_log
// @global 256
// @arg x global float[256] random(3, -10, 10)
// @arg y global float[256] random(4, 0.001, 1000)
// @arg e global float[256] zero
// @arg l global float[256] zero
// @check e ulp 6
// @check l ulp 6
// @bench-global 16777216
// @bench-arg x global float[16777216] random(3, -10, 10)
// @bench-arg y global float[16777216] random(4, 0.001, 1000)
// @bench-arg e global float[16777216] zero
// @bench-arg l global float[16777216] zero
__kernel void exp_log(__global const float* x, __global const float* y, __global float* e, __global float* l) {
  const size_t i = get_global_id(0);
  e[i] = exp(x[i]);
  l[i] = log(y[i]);
}
