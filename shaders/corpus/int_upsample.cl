// upsample: joins a high and a low half into the next wider type.
// @kernel upsamples
// @global 256
// @arg hi global short[256] bits(171)
// @arg lo global ushort[256] bits(172)
// @arg out global int[256] zero
// @arg wide global ulong[256] zero
// @check out exact
// @check wide exact
// @bench-global 16777216
// @bench-arg hi global short[16777216] bits(171)
// @bench-arg lo global ushort[16777216] bits(172)
// @bench-arg out global int[16777216] zero
// @bench-arg wide global ulong[16777216] zero
__kernel void upsamples(__global const short* hi, __global const ushort* lo, __global int* out, __global ulong* wide) {
  const int i = get_global_id(0);
  out[i] = upsample(hi[i], lo[i]);
  wide[i] = upsample((uint)out[i], (uint)(lo[i] * 3u));
}
