// y = a * x + y in single precision (the textbook first kernel). Whether
// a*x+y is contracted into one fma is the compiler's choice: the two
// results may differ by the one rounding of the product.
// @kernel saxpy
// @global 1024
// @local 128
// @arg a float 1.75
// @arg x global float[1024] random(43, -10, 10)
// @arg y global float[1024] random(44, -10, 10)
// @check y abs 1e-5
// @bench-global 16777216
// @bench-arg x global float[16777216] random(43, -10, 10)
// @bench-arg y global float[16777216] random(44, -10, 10)
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  const size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
