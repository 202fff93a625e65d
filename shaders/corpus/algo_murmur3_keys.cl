// MurmurHash3 (x86, 32-bit) of 16-byte keys held as uint4, with a seed,
// then the bucket each key falls in counted with a global atomic_inc (the
// first step of building a hash table); unsigned arithmetic wraps, as the
// algorithm wants.
// @kernel murmur3_keys
// @global 512
// @arg keys global uint4[512] bits(321)
// @arg seed uint 0x9747b28c
// @arg hashes global uint[512] zero
// @arg bucket_counts global uint[64] zero
// @arg bucket_mask uint 63
// @check hashes exact
// @check bucket_counts exact
// @bench-global 8388608
// @bench-arg keys global uint4[8388608] bits(321)
// @bench-arg hashes global uint[8388608] zero
// @bench-arg bucket_counts global uint[65536] zero
// @bench-arg bucket_mask uint 65535
uint murmur_mix(uint k) {
  k *= 0xcc9e2d51u;
  k = rotate(k, 15u);
  return k * 0x1b873593u;
}

uint murmur_fmix(uint h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

__kernel void murmur3_keys(__global const uint4* keys, const uint seed, __global uint* hashes,
                           __global uint* bucket_counts, const uint bucket_mask) {
  const size_t i = get_global_id(0);
  const uint4 key = keys[i];
  const uint words[4] = {key.x, key.y, key.z, key.w};
  uint h = seed;
  for (int w = 0; w < 4; ++w) {
    h ^= murmur_mix(words[w]);
    h = rotate(h, 13u);
    h = h * 5u + 0xe6546b64u;
  }
  h ^= 16u;  // the key's length in bytes
  h = murmur_fmix(h);
  hashes[i] = h;
  atomic_inc(&bucket_counts[h & bucket_mask]);
}
