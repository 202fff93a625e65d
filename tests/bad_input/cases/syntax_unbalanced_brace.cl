kernel void k(global int* p) {
  if (p[0]) {
    p[1] = 2;
}
