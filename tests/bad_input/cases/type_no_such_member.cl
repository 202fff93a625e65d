typedef struct { int a; } S;
kernel void k(global S* p) {
  p->b = 1;
}
