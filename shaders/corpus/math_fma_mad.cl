// fma is correctly rounded (0 ulp); mad may be either fma or a multiply
// then an add, so the two implementations may differ by the rounding of
// the product: compared with an absolute bound.
// @kernel fused
// @global 256
// @arg a global float[256] random(199, -100, 100)
// @arg b global float[256] random(200, -100, 100)
// @arg c global float[256] random(201, -100, 100)
// @arg f global float[256] zero
// @arg m global float[256] zero
// @check f exact
// @check m abs 1e-3
// @bench-global 8388608
// @bench-arg a global float[8388608] random(199, -100, 100)
// @bench-arg b global float[8388608] random(200, -100, 100)
// @bench-arg c global float[8388608] random(201, -100, 100)
// @bench-arg f global float[8388608] zero
// @bench-arg m global float[8388608] zero
__kernel void fused(__global const float* a, __global const float* b, __global const float* c, __global float* f,
                    __global float* m) {
  const int i = get_global_id(0);
  f[i] = fma(a[i], b[i], c[i]);
  m[i] = mad(a[i], b[i], c[i]);
}
