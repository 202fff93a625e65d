// Control flow: a switch with fall-through, nested loops with break and
// continue, early return, and a do-while.
// @kernel control_flow
// @global 256
// @arg in global int[256] random(270, -50, 50)
// @arg out global int[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(270, -50, 50)
// @bench-arg out global int[16777216] zero
__kernel void control_flow(__global const int* in, __global int* out) {
  const int i = get_global_id(0);
  int v = in[i], acc = 0;
  if (v == 0) {
    out[i] = -999;
    return;
  }
  switch (v & 7) {
    case 0: acc += 1;
    case 1: acc += 10; break;
    case 2:
    case 3: acc -= 5; break;
    case 4: acc = v * v; break;
    default: acc = 3;
  }
  for (int a = 0; a < 8; ++a) {
    if (a == v % 5) continue;
    for (int b = 0; b < 8; ++b) {
      if (a * b > 20) break;
      acc += (a ^ b) - 1;
    }
  }
  int n = v < 0 ? -v : v;
  do {
    acc += n & 1;
    n >>= 1;
  } while (n);
  out[i] = acc;
}
