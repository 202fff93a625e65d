// Collatz stopping times of 1 .. 1024 (data-dependent loop trip counts).
// @kernel collatz
// @global 1024
// @arg steps global uint[1024] zero
// @check steps exact
// @bench-global 1048576
// @bench-arg steps global uint[1048576] zero
__kernel void collatz(__global uint* steps) {
  ulong n = get_global_id(0) + 1;
  uint count = 0;
  while (n != 1) {
    n = (n & 1) ? 3 * n + 1 : n >> 1;
    ++count;
  }
  steps[get_global_id(0)] = count;
}
