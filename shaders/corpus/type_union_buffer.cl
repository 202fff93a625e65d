// A union in a global buffer: the same 4 bytes as uint, float and uchar4;
// the float view is changed only by exact operations.
// @kernel unions
// @global 256
// @arg in global uint[256] random(120, 0, 1000000)
// @arg out global uint[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global uint[16777216] random(120, 0, 1000000)
// @bench-arg out global uint[16777216] zero
typedef union {
  uint u;
  float f;
  uchar4 bytes;
} Word;
__kernel void unions(__global const Word* in, __global Word* out) {
  Word w = in[get_global_id(0)];
  w.f = (float)w.u;
  uchar4 b = w.bytes;
  w.bytes = b.wzyx;
  out[get_global_id(0)].u = w.u ^ (uint)b.x;
}
