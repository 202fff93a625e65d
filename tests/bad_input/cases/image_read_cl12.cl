kernel void k(read_only image2d_t image, global float4* p) {
  p[0] = read_imagef(image, (int2)(0, 0));
}
