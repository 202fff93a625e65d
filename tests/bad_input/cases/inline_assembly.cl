kernel void k(global int* p) {
  __asm__("nop");
  p[0] = 1;
}
