kernel void k(write_only image2d_t image) {
  write_imagef(image, (int2)(0, 0), (float4)(1.0f));
}
