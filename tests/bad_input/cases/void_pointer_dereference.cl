kernel void k(global void* p) {
  *p = 1;
}
