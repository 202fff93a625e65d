// 256-bin byte histogram: per-work-group bins in __local memory with
// atomic_inc, merged into the global histogram with atomic_add.
// @kernel histogram256
// @global 1024
// @local 128
// @arg data global uchar[8192] bits(33)
// @arg hist global uint[256] zero
// @arg n uint 8192
// @check hist exact
// @bench-global 131072
// @bench-arg data global uchar[67108864] bits(33)
// @bench-arg n uint 67108864
__kernel void histogram256(__global const uchar* data, __global uint* hist, uint n) {
  __local uint bins[256];
  for (uint b = get_local_id(0); b < 256; b += get_local_size(0)) bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&bins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = get_local_id(0); b < 256; b += get_local_size(0))
    if (bins[b]) atomic_add(&hist[b], bins[b]);
}
