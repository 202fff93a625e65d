constant int limit = 4;
kernel void k(global int* p) {
  limit = p[0];
}
