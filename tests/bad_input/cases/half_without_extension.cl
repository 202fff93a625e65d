kernel void k(global int* p) {
  half h = 1.0h;
  p[0] = h;
}
