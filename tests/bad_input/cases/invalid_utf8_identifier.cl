kernel void k(global int* p) {
  int ÿþ = 1;
  p[0] = 1;
}
