kernel void k(global int* p, write_only pipe int out) {
  p[0] = 1;
}
