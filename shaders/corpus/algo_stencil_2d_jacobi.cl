// One Jacobi iteration of a 2-D five-point stencil on a 32x32 grid with
// fixed boundaries, reading global memory directly.
// @kernel jacobi
// @global 32,32
// @local 16,4
// @arg in global float[1024] randint(15, -32, 32)
// @arg out global float[1024] zero
// @arg width int 32
// @arg height int 32
// @check out exact
// @bench-global 4096,4096
// @bench-arg in global float[16777216] randint(15, -32, 32)
// @bench-arg out global float[16777216] zero
// @bench-arg width int 4096
// @bench-arg height int 4096
__kernel void jacobi(__global const float* in, __global float* out, int width, int height) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}
