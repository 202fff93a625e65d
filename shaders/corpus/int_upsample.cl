// upsample: joins a high and a low half into the next wider type.
// @kernel upsamples
// @global 256
// @arg hi global short[256] bits(171)
// @arg lo global ushort[256] bits(172)
// @arg out global int[256] zero
// @arg wide global ulong[256] zero
// @check out exact
// @check wide exact
__kernel void upsamples(__global const short* hi, __global const ushort* lo, __global int* out, __global ulong* wide) {
  const int i = get_global_id(0);
  out[i] = upsample(hi[i], lo[i]);
  wide[i] = upsample((uint)out[i], (uint)(lo[i] * 3u));
}
