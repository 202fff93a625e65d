global int counter;
kernel void k(global int* p) {
  p[0] = counter;
}
