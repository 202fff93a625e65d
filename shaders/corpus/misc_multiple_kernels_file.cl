// A program with several kernels and shared helpers; only one of them is
// run, the others must compile alongside it.
// @kernel second
// @global 128
// @arg in global float[128] randint(279, -100, 100)
// @arg out global float[128] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global float[16777216] randint(279, -100, 100)
// @bench-arg out global float[16777216] zero
float scale(float v) { return v * 4.0f; }
__kernel void first(__global const float* in, __global float* out) { out[get_global_id(0)] = scale(in[get_global_id(0)]); }
__kernel void second(__global const float* in, __global float* out) {
  out[get_global_id(0)] = scale(in[get_global_id(0)]) - in[(get_global_id(0) + 1) % 128];
}
__kernel void third(__global int* out) { out[get_global_id(0)] = 3; }
