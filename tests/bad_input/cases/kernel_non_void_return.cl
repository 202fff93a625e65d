kernel int k(global int* p) {
  p[0] = 1;
  return 0;
}
