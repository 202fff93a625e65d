// select on scalars (nonzero picks b) and vectors (the most significant
// bit of each mask component picks b), and bitselect on uints and floats.
// @kernel selects
// @global 128
// @arg a global int4[128] random(138, -100, 100)
// @arg b global int4[128] random(139, -100, 100)
// @arg m global int4[128] bits(140)
// @arg out global int4[128] zero
// @arg fout global float4[128] zero
// @check out exact
// @check fout exact
// @bench-global 2097152
// @bench-arg a global int4[2097152] random(138, -100, 100)
// @bench-arg b global int4[2097152] random(139, -100, 100)
// @bench-arg m global int4[2097152] bits(140)
// @bench-arg out global int4[2097152] zero
// @bench-arg fout global float4[2097152] zero
__kernel void selects(__global const int4* a, __global const int4* b, __global const int4* m, __global int4* out,
                      __global float4* fout) {
  const int i = get_global_id(0);
  int4 v = select(a[i], b[i], m[i]);
  v.x = select(a[i].x, b[i].x, m[i].y & 1);
  out[i] = v ^ as_int4(bitselect(as_uint4(a[i]), as_uint4(b[i]), as_uint4(m[i])));
  fout[i] = bitselect(convert_float4(a[i]), convert_float4(b[i]), as_float4((uint4)(0x80000000u)));
}
