kernel void k(constant int* table) {
  table[0] = 1;
}
