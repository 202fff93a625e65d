// A struct with mixed members in a global buffer, laid out by OpenCL's
// rules (natural alignment, tail padding): char, int, short, long, float2.
// Each work-item reads one and writes a transformed copy member by member
// (a whole-struct copy may or may not copy the padding bytes).
// @kernel struct_layout
// @global 64
// @arg in global uint[768] random(118, 0, 1000)
// @arg out global uint[768] zero
// @check out exact
// @bench-global 2097152
// @bench-arg in global uint[25165824] random(118, 0, 1000)
// @bench-arg out global uint[25165824] zero
typedef struct {
  char c;      // 0
  int i;       // 4
  short s;     // 8
  long l;      // 16
  float2 f;    // 24
  uchar tail;  // 32, padded to 40
  int pad_to_48[2];
} Mixed;
__kernel void struct_layout(__global const Mixed* in, __global Mixed* out) {
  const int k = get_global_id(0);
  Mixed m = in[k];
  m.c = (char)(m.c + 1);
  m.i = m.i * 2 + m.s;
  m.s = (short)(m.s - 3);
  m.l = m.l + ((long)m.i << 32);
  m.f = (float2)((float)m.s, (float)m.c);
  m.tail = (uchar)sizeof(Mixed);
  __global Mixed* o = &out[k];
  o->c = m.c;
  o->i = m.i;
  o->s = m.s;
  o->l = m.l;
  o->f = m.f;
  o->tail = m.tail;
  o->pad_to_48[0] = (int)((__global char*)&o->l - (__global char*)o);
  o->pad_to_48[1] = (int)((__global char*)&o->tail - (__global char*)o);
}
