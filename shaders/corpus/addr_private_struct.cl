// Private structs: built field by field, copied, passed by value to a
// function and returned from one.
// @kernel private_struct
// @global 128
// @arg in global int4[128] random(78, -100, 100)
// @arg out global int[128] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global int4[8388608] random(78, -100, 100)
// @bench-arg out global int[8388608] zero
typedef struct {
  int x, y;
  short tag;
  long wide;
} Item;
Item make_item(int4 v) {
  Item it;
  it.x = v.x;
  it.y = v.y * v.z;
  it.tag = (short)v.w;
  it.wide = (long)v.x * 100000 + v.y;
  return it;
}
int score(Item it) { return it.x + it.y - it.tag + (int)(it.wide % 1000); }
__kernel void private_struct(__global const int4* in, __global int* out) {
  Item a = make_item(in[get_global_id(0)]);
  Item b = a;
  b.tag += 5;
  out[get_global_id(0)] = score(a) * 2 + score(b);
}
