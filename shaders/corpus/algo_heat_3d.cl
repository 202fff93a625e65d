// 3-D seven-point heat-equation step over a 3-D ND-range (16x8x4).
// @kernel heat3d
// @global 16,8,4
// @local 4,4,2
// @arg in global float[512] randint(17, 0, 64)
// @arg out global float[512] zero
// @check out exact
// @bench-global 256,256,256
// @bench-arg in global float[16777216] randint(17, 0, 64)
// @bench-arg out global float[16777216] zero
__kernel void heat3d(__global const float* in, __global float* out) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const int nx = get_global_size(0), ny = get_global_size(1), nz = get_global_size(2);
  const int i = (z * ny + y) * nx + x;
  float c = in[i];
  float xm = x > 0 ? in[i - 1] : c, xp = x < nx - 1 ? in[i + 1] : c;
  float ym = y > 0 ? in[i - nx] : c, yp = y < ny - 1 ? in[i + nx] : c;
  float zm = z > 0 ? in[i - nx * ny] : c, zp = z < nz - 1 ? in[i + nx * ny] : c;
  out[i] = c + 0.125f * (xm + xp + ym + yp + zm + zp - 6.0f * c);
}
