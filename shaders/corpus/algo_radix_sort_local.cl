// Block-local LSD radix sort, one bit per pass: for each of the low `bits`
// bits, the work-group scans the "bit is 0" flags in __local memory and
// scatters every key to its stable split position (zeros first, then ones),
// the building block of a GPU radix sort's local pass. 256 keys per work-group.
// @kernel radix_sort_block
// @global 1024
// @local 256
// @arg keys_in global uint[1024] bits(319)
// @arg keys_out global uint[1024] zero
// @arg bits uint 8
// @check keys_out exact
// @bench-global 1048576
// @bench-arg keys_in global uint[1048576] bits(319)
// @bench-arg keys_out global uint[1048576] zero
#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void radix_sort_block(__global const uint* keys_in, __global uint* keys_out, const uint bits) {
  __local uint keys[WG];
  __local uint scan[WG];
  const uint lid = get_local_id(0);
  uint key = keys_in[get_global_id(0)];

  for (uint b = 0; b < bits; ++b) {
    const uint is_zero = ((key >> b) & 1u) ^ 1u;
    scan[lid] = is_zero;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < WG; offset <<= 1) {
      const uint add = lid >= offset ? scan[lid - offset] : 0u;
      barrier(CLK_LOCAL_MEM_FENCE);
      scan[lid] += add;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint zeros_before = scan[lid] - is_zero;
    const uint total_zeros = scan[WG - 1];
    const uint dest = is_zero ? zeros_before : total_zeros + (lid - zeros_before);
    keys[dest] = key;
    barrier(CLK_LOCAL_MEM_FENCE);
    key = keys[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  keys_out[get_global_id(0)] = key;
}
