int external_helper(int x);
kernel void k(global int* p) {
  p[0] = external_helper(p[1]);
}
