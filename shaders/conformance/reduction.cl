// Work-group reductions whose every step needs the barrier under test, as
// the OpenCL conformance suite's work-group tests are built: each work-item
// puts its value in a tile, the first half of the live values adds the
// second half in (the half rounded up, so any size works, odd ones too),
// barrier, until one value is left; after a last barrier every work-item
// reads the total and writes what it saw. ROUNDS times over, with new values
// each round, so the tile is rewritten right after it was read.
//
// views[gid * rounds + round] is the total the work-item saw in that round;
// the host checks every one against the sum (mod 2^32) of the work-group's
// values value_of(in[gid], round). Three tiles: a kernel-scope __local array
// (up to MAX_LOCAL_SIZE work-items), a __local pointer argument, and a
// work-group's slice of a global buffer. BARRIER(flags) is the barrier under
// test, defined by the test (barrier(flags) by default).
#ifndef BARRIER
#define BARRIER(flags) barrier(flags)
#endif

#define MAX_LOCAL_SIZE 1024

static uint value_of(uint input, uint round) { return input ^ (round * 0x9E3779B9u); }

static uint reduce_in_local(local uint* tile, uint lid, uint n, uint value) {
  tile[lid] = value;
  BARRIER(CLK_LOCAL_MEM_FENCE);
  for (uint live = n; live > 1u;) {
    const uint upper = (live + 1u) / 2u;  // values from `upper` on are added in below it
    if (lid < live - upper) tile[lid] += tile[lid + upper];
    BARRIER(CLK_LOCAL_MEM_FENCE);
    live = upper;
  }
  const uint total = tile[0];
  BARRIER(CLK_LOCAL_MEM_FENCE);  // everyone has read it before the next round writes
  return total;
}

static uint reduce_in_global(global uint* tile, uint lid, uint n, uint value) {
  tile[lid] = value;
  BARRIER(CLK_GLOBAL_MEM_FENCE);
  for (uint live = n; live > 1u;) {
    const uint upper = (live + 1u) / 2u;  // values from `upper` on are added in below it
    if (lid < live - upper) tile[lid] += tile[lid + upper];
    BARRIER(CLK_GLOBAL_MEM_FENCE);
    live = upper;
  }
  const uint total = tile[0];
  BARRIER(CLK_GLOBAL_MEM_FENCE);
  return total;
}

kernel void reduce_local_array(global const uint* in, global uint* views, uint rounds) {
  local uint tile[MAX_LOCAL_SIZE];
  const uint gid = get_global_id(0), lid = get_local_id(0), n = get_local_size(0);
  for (uint round = 0; round < rounds; ++round)
    views[gid * rounds + round] = reduce_in_local(tile, lid, n, value_of(in[gid], round));
}

kernel void reduce_local_arg(global const uint* in, global uint* views, uint rounds, local uint* tile) {
  const uint gid = get_global_id(0), lid = get_local_id(0), n = get_local_size(0);
  for (uint round = 0; round < rounds; ++round)
    views[gid * rounds + round] = reduce_in_local(tile, lid, n, value_of(in[gid], round));
}

// The tile is scratch[first global id of the work-group ...].
kernel void reduce_global(global const uint* in, global uint* views, uint rounds, global uint* scratch) {
  const uint gid = get_global_id(0), lid = get_local_id(0), n = get_local_size(0);
  global uint* tile = scratch + (gid - lid);
  for (uint round = 0; round < rounds; ++round)
    views[gid * rounds + round] = reduce_in_global(tile, lid, n, value_of(in[gid], round));
}
