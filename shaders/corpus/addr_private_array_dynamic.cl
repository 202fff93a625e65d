// A private array indexed with values read at run time (no unrolling can
// turn it into registers).
// @kernel private_dynamic
// @global 256
// @arg in global int[256] random(76, 0, 1000)
// @arg idx global uchar[256] random(77, 0, 15)
// @arg out global int[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(76, 0, 1000)
// @bench-arg idx global uchar[16777216] random(77, 0, 15)
// @bench-arg out global int[16777216] zero
__kernel void private_dynamic(__global const int* in, __global const uchar* idx, __global int* out) {
  int table[16];
  const int v = in[get_global_id(0)];
  for (int i = 0; i < 16; ++i) table[i] = v * i - i * i;
  table[idx[(get_global_id(0) + 1) % 256]] += 1000;
  out[get_global_id(0)] = table[idx[get_global_id(0)]];
}
