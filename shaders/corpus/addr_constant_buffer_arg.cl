// A lookup table passed as a __constant pointer argument, indexed by data.
// @kernel lookup
// @global 512
// @arg table constant int[256] random(70, -1000000, 1000000)
// @arg keys global uchar[512] bits(71)
// @arg out global int[512] zero
// @check out exact
// @bench-global 16777216
// @bench-arg keys global uchar[16777216] bits(71)
// @bench-arg out global int[16777216] zero
__kernel void lookup(__constant int* table, __global const uchar* keys, __global int* out) {
  out[get_global_id(0)] = table[keys[get_global_id(0)]] ^ table[255 - keys[get_global_id(0)]];
}
