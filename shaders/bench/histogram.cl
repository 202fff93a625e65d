// 256-bin histogram of the low bytes of `input`: each work-group counts
// WG * per_item consecutive values (work-item lid takes every WG-th) into
// __local bins with atomic_inc, then adds its bins to the global ones.
#define WG 256
#define BINS 256  // == WG: work-item lid clears and publishes bin lid

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void histogram(global const uint* restrict input, global uint* restrict bins, uint n, uint per_item) {
  local uint counts[BINS];
  const uint lid = get_local_id(0);
  counts[lid] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint first = get_group_id(0) * WG * per_item + lid;
  for (uint k = 0; k < per_item; ++k) {
    const uint i = first + k * WG;
    if (i < n) atomic_inc(&counts[input[i] & (BINS - 1u)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (counts[lid] != 0u) atomic_add(&bins[lid], counts[lid]);
}
