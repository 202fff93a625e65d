#define TWICE(x) ((x) * 2)
kernel void k(global int* p) {
  p[0] = TWICE(p[1];
}
