void sync(uint flags) {
  barrier(flags);
}
kernel void k(global int* p, uint flags) {
  p[0] = 1;
  sync(flags);
}
