// 64-bin luma histogram of RGBA pixels: a grid-stride loop over the image
// (fewer work-items than pixels) counting into per-work-group __local bins
// with atomic_inc, then one global atomic_add per non-empty bin.
// @kernel luma_histogram
// @global 512
// @local 128
// @arg pixels global uchar4[5000] bits(304)
// @arg npixels uint 5000
// @arg hist global uint[64] zero
// @check hist exact
// @bench-global 65536
// @bench-arg pixels global uchar4[33554432] bits(304)
// @bench-arg npixels uint 33554432
#define BINS 64

__kernel void luma_histogram(__global const uchar4* pixels, const uint npixels, __global uint* hist) {
  __local uint bins[BINS];
  const uint lid = get_local_id(0);
  const uint lsize = get_local_size(0);

  for (uint b = lid; b < BINS; b += lsize) bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint i = get_global_id(0); i < npixels; i += get_global_size(0)) {
    const uint4 p = convert_uint4(pixels[i]);
    const uint luma = (77u * p.x + 150u * p.y + 29u * p.z) >> 8;  // BT.601 weights in 8.8 fixed point
    atomic_inc(&bins[luma >> 2]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint b = lid; b < BINS; b += lsize) {
    const uint count = bins[b];
    if (count) atomic_add(&hist[b], count);
  }
}
