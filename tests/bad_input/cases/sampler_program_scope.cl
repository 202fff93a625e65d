constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
kernel void k(read_only image2d_t image, global float4* p) {
  p[0] = read_imagef(image, nearest, (int2)(0, 0));
}
