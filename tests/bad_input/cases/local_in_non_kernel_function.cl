int helper(int x) {
  local int scratch[4];
  scratch[0] = x;
  return scratch[0];
}
kernel void k(global int* p) {
  p[0] = helper(1);
}
