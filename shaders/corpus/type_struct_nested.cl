// Nested structs with an array member in a global buffer, accessed through
// a pointer to the inner struct.
// @kernel nested
// @global 32
// @arg in global int[512] random(119, -100, 100)
// @arg out global int[512] zero
// @check out exact
// @bench-global 2097152
// @bench-arg in global int[33554432] random(119, -100, 100)
// @bench-arg out global int[33554432] zero
typedef struct {
  int a;
  int b[3];
} Inner;
typedef struct {
  Inner first;
  Inner second[2];
  int4 v;
} Outer;
__kernel void nested(__global const Outer* in, __global Outer* out) {
  const int k = get_global_id(0);
  __global const Inner* inner = &in[k].second[1];
  Outer o = in[k];
  o.first.a = inner->b[0] + inner->b[2];
  o.second[0] = o.first;
  o.second[1].b[1] = o.v.w - o.v.x;
  o.v = (int4)(o.first.a, o.first.b[0], o.second[1].a, sizeof(Outer));
  out[k] = o;
}
