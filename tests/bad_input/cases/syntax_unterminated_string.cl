kernel void k(global int* p) {
  constant char* s = "abc;
  p[0] = 1;
}
