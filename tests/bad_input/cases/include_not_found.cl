#include "missing_header.h"
kernel void k(global int* p) {
  p[0] = 1;
}
