// Fence-heavy message passing between the two work-items of each pair
// (2k, 2k + 1) of a work-group, `iterations` rounds. Each round a work-item
// writes its message (a plain store), write_mem_fence, publishes the round
// number in its flag (atomic_xchg); then, after a barrier that only paces
// the rounds (flags 0: it orders no memory), it reads its partner's flag
// (volatile loads, at most SPIN_LIMIT), read_mem_fence, and adds the
// partner's message. Messages alternate between two slots per work-item, so
// a partner a round ahead never overwrites the one being read.
//
// output[2 * me] = the sum of partner * 7 + round over the rounds, and
// output[2 * me + 1] = the rounds whose flag was not seen (must be 0).
#define WG 256
#define SPIN_LIMIT 1000u

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void message_passing(global uint* data, global uint* flags, global uint* output, uint iterations) {
  const uint me = get_global_id(0), partner = me ^ 1u;
  volatile global uint* partner_flag = flags + partner;
  uint sum = 0u, missed = 0u;
  for (uint round = 0; round < iterations; ++round) {
    data[2u * me + (round & 1u)] = me * 7u + round;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flags[me], round + 1u);
    barrier(0);
    uint polls = 0u;
    while (*partner_flag <= round && ++polls < SPIN_LIMIT) {
    }
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (polls < SPIN_LIMIT) sum += data[2u * partner + (round & 1u)];
    else ++missed;
  }
  output[2u * me] = sum;
  output[2u * me + 1u] = missed;
}
