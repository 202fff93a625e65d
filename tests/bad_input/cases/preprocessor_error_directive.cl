#ifndef TILE
#error TILE must be defined
#endif
kernel void k(global int* p) {
  p[0] = TILE;
}
