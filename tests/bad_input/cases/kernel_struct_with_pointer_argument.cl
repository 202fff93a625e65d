typedef struct { global int* data; } S;
kernel void k(S s) {
  s.data[0] = 1;
}
