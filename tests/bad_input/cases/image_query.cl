kernel void k(read_only image3d_t image, global int* p) {
  p[0] = get_image_width(image);
}
