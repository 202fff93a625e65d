// SAXPY vectorised by hand: each work-item moves four floats with vload4 and
// vstore4 on the scalar pointers, and the work-item at the end handles the
// n % 4 leftover elements one at a time. Integer-valued x and y with
// a = 2.5 keep a * x + y exact, fused or not.
// @kernel saxpy_vload4
// @global 256
// @local 64
// @arg n int 1022
// @arg a float 2.5
// @arg x global float[1022] randint(315, -1000, 1000)
// @arg y global float[1022] randint(316, -1000, 1000)
// @check y exact
// @bench-global 6291456
// @bench-arg n int 25165822
// @bench-arg x global float[25165822] randint(315, -1000, 1000)
// @bench-arg y global float[25165822] randint(316, -1000, 1000)
__kernel void saxpy_vload4(const int n, const float a, __global const float* x, __global float* y) {
  const int i = get_global_id(0);
  const int base = 4 * i;
  if (base + 3 < n) {
    const float4 xv = vload4(i, x);
    const float4 yv = vload4(i, y);
    vstore4(a * xv + yv, i, y);
  } else {
    for (int k = base; k < n; ++k) y[k] = a * x[k] + y[k];
  }
}
