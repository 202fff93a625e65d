// A kernel-scope __local array of structs, written by one work-item and
// read by another.
// @kernel local_structs
// @global 64
// @local 32
// @arg in global int2[64] random(75, -500, 500)
// @arg out global int4[64] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global int2[8388608] random(75, -500, 500)
// @bench-arg out global int4[8388608] zero
typedef struct {
  int sum;
  short diff;
  char flag;
  int product;
} Cell;
__kernel void local_structs(__global const int2* in, __global int4* out) {
  __local Cell cells[32];
  const int lid = get_local_id(0);
  int2 v = in[get_global_id(0)];
  cells[lid].sum = v.x + v.y;
  cells[lid].diff = (short)(v.x - v.y);
  cells[lid].flag = v.x > v.y;
  cells[lid].product = v.x * v.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  Cell c = cells[31 - lid];
  out[get_global_id(0)] = (int4)(c.sum, c.diff, c.flag, c.product);
}
