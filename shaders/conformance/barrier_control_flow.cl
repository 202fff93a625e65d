// Barriers inside loops and inside uniformly taken conditionals. OpenCL
// requires every work-item of a work-group to reach the same barriers in the
// same order: in a loop, every iteration's barrier; in a conditional, the
// condition the same for the whole work-group. Each kernel passes values
// around the work-group through a tile at every barrier, and every
// work-item's final value depends on every step, so the host's simulation
// (tests/conformance/control_flow_test.cpp) agrees only if each barrier
// ordered the tile. A kernel-scope loop of `iterations` (many: thousands)
// carries two barriers per iteration.
//
// The tile is a __local pointer argument (TILE_LOCAL, the default, fences
// CLK_LOCAL_MEM_FENCE) or a work-group's slice of a global buffer (TILE_GLOBAL,
// CLK_GLOBAL_MEM_FENCE). out[gid] is the work-item's final value.
#if defined(TILE_GLOBAL)
#define TILE global uint*
#define FLAGS CLK_GLOBAL_MEM_FENCE
#define TILE_ARG global uint* scratch
#define TILE_OF(lid) (scratch + (get_global_id(0) - (lid)))
#else
#define TILE local uint*
#define FLAGS CLK_LOCAL_MEM_FENCE
#define TILE_ARG local uint* tile_arg
#define TILE_OF(lid) tile_arg
#endif

static uint start_of(uint group, uint lid) { return group * 1000u + lid + 1u; }

// Every iteration: v = tile[(lid + shift) % n] * 3 + iteration, with a
// shift that changes each iteration.
kernel void loop_every_iteration(global uint* out, uint iterations, TILE_ARG) {
  const uint lid = get_local_id(0), n = get_local_size(0);
  TILE tile = TILE_OF(lid);
  uint v = start_of(get_group_id(0), lid);
  for (uint it = 0; it < iterations; ++it) {
    tile[lid] = v;
    barrier(FLAGS);
    v = tile[(lid + it * 7u + 1u) % n] * 3u + it;
    barrier(FLAGS);
  }
  out[get_global_id(0)] = v;
}

// A loop whose trip count differs between work-groups (uniform within each):
// iterations + group % 3.
kernel void loop_group_trip_count(global uint* out, uint iterations, TILE_ARG) {
  const uint lid = get_local_id(0), n = get_local_size(0);
  TILE tile = TILE_OF(lid);
  uint v = start_of(get_group_id(0), lid);
  const uint trips = iterations + get_group_id(0) % 3u;
  for (uint it = 0; it < trips; ++it) {
    tile[n - 1u - lid] = v;
    barrier(FLAGS);
    v = (tile[lid] ^ (v << 1)) + it;
    barrier(FLAGS);
  }
  out[get_global_id(0)] = v;
}

// Uniform conditionals in a loop: which branch runs depends only on the
// iteration, the work-group and `selector`; two of the branches have
// barriers (different ones), the others none. `period` is 3 (an argument:
// with a constant 3, LLVM narrows the branch number to an i2, which
// SPIRV-LLVM-Translator 15 rejects).
kernel void conditional_barriers(global uint* out, uint iterations, uint selector, uint period, TILE_ARG) {
  const uint lid = get_local_id(0), n = get_local_size(0), group = get_group_id(0);
  TILE tile = TILE_OF(lid);
  uint v = start_of(group, lid);
  for (uint it = 0; it < iterations; ++it) {
    const uint branch = (it + group + selector) % period;
    if (branch == 0u) {
      tile[lid] = v;
      barrier(FLAGS);
      v = tile[(lid + 1u) % n] + 1u;
      barrier(FLAGS);
    } else if (branch == 1u) {
      tile[n - 1u - lid] = v;
      barrier(FLAGS);
      v = tile[lid] ^ it;
      barrier(FLAGS);
    } else {
      v = v * 5u + 1u;
    }
  }
  out[get_global_id(0)] = v;
}

// A loop that ends on a value read from the tile after a barrier (the same
// for every work-item, so uniform): v = tile[(lid + 1) % n] + round until
// tile[0] passes `limit`, at most `iterations` rounds.
kernel void loop_uniform_exit(global uint* out, uint iterations, uint limit, TILE_ARG) {
  const uint lid = get_local_id(0), n = get_local_size(0);
  TILE tile = TILE_OF(lid);
  uint v = start_of(get_group_id(0), lid);
  for (uint round = 0; round < iterations; ++round) {
    tile[lid] = v;
    barrier(FLAGS);
    const bool stop = tile[0] > limit;
    v = tile[(lid + 1u) % n] + round;
    barrier(FLAGS);
    if (stop) break;
  }
  out[get_global_id(0)] = v;
}
