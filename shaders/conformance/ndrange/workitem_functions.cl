// Every OpenCL work-item function, as each work-item sees it, written to
// `records` for the host to check against OpenCL's definitions
// (tests/host/ndrange_conformance_test.cpp), and a __local-memory neighbour
// exchange across barriers, whose results go in the same record.
//
// A work-item's record sits at its global linear id, computed here from
// get_global_id, get_global_offset and get_global_size (so a wrong value
// lands in the wrong slot, or in none, and the host sees it). RECORD_WORDS
// uint words, dimension d at +d:
//    0      get_work_dim()
//    1.. 3  get_global_size(d)          4.. 6  get_global_id(d)
//    7.. 9  get_local_size(d)          10..12  get_enqueued_local_size(d)
//   13..15  get_local_id(d)            16..18  get_num_groups(d)
//   19..21  get_group_id(d)            22..24  get_global_offset(d)
//   25      get_global_linear_id()     26      get_local_linear_id()
//   27      the exchange's first read: the token of the next work-item of the group
//   28      the exchange's second read: the second token of the previous work-item
//   29      WRITTEN
// Words 25 and 26 are written only when VKCL_TEST_GLOBAL_LINEAR_ID and
// VKCL_TEST_LOCAL_LINEAR_ID are defined (OpenCL C 2.0 and later), and the
// kernel has reqd_work_group_size(VKCL_TEST_REQD_WORK_GROUP_SIZE) when that is.
//
// The exchange: work-item i of a work-group of n (i: its local linear id,
// computed from get_local_id and get_local_size, which is the edge groups'
// real size) writes token 2r + 1 (r: its global linear id) to scratch[i];
// barrier; reads scratch[(i + 1) % n]; barrier; writes 2r + 2; barrier;
// reads scratch[(i + n - 1) % n]. A missing or misplaced barrier, or a wrong
// local size, reads a token of the wrong work-item or round.
#define RECORD_WORDS 30
#define WRITTEN 0x600Du

#ifdef VKCL_TEST_REQD_WORK_GROUP_SIZE
__attribute__((reqd_work_group_size(VKCL_TEST_REQD_WORK_GROUP_SIZE)))
#endif
kernel void workitem_functions(global uint* records, local uint* scratch) {
  const uint gx = get_global_id(0) - get_global_offset(0);
  const uint gy = get_global_id(1) - get_global_offset(1);
  const uint gz = get_global_id(2) - get_global_offset(2);
  const uint r = gx + get_global_size(0) * (gy + get_global_size(1) * gz);

  const uint n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint i = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  scratch[i] = 2 * r + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint next = scratch[(i + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  scratch[i] = 2 * r + 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint previous = scratch[(i + n - 1) % n];

  if (gx >= get_global_size(0) || gy >= get_global_size(1) || gz >= get_global_size(2)) return;
  global uint* record = records + (size_t)r * RECORD_WORDS;
  record[0] = get_work_dim();
  for (uint d = 0; d < 3; ++d) {
    record[1 + d] = get_global_size(d);
    record[4 + d] = get_global_id(d);
    record[7 + d] = get_local_size(d);
    record[10 + d] = get_enqueued_local_size(d);
    record[13 + d] = get_local_id(d);
    record[16 + d] = get_num_groups(d);
    record[19 + d] = get_group_id(d);
    record[22 + d] = get_global_offset(d);
  }
#ifdef VKCL_TEST_GLOBAL_LINEAR_ID
  record[25] = get_global_linear_id();
#endif
#ifdef VKCL_TEST_LOCAL_LINEAR_ID
  record[26] = get_local_linear_id();
#endif
  record[27] = next;
  record[28] = previous;
  record[29] = WRITTEN;
}
