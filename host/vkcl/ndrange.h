// ND-ranges as OpenCL defines them, and how one becomes Vulkan dispatches.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace vkcl {

// Dimensions at or above `dims` are ignored and treated as global 1, local 1,
// offset 0, so `NDRange{1, {257}, {64}}` is a valid 1-D range.
struct NDRange {
  uint32_t dims = 1;
  std::array<uint64_t, 3> global{1, 1, 1};
  // All zero: the runtime picks (see choose_local_size). Zero in some used
  // dimensions and not in others is an error.
  std::array<uint64_t, 3> local{0, 0, 0};
  std::array<uint64_t, 3> offset{0, 0, 0};

  // dims = global.size(); local and offset are empty or have as many entries.
  static NDRange make(std::initializer_list<uint64_t> global, std::initializer_list<uint64_t> local = {},
                      std::initializer_list<uint64_t> offset = {});
};

struct DispatchLimits {
  std::array<uint32_t, 3> max_local_size{1, 1, 1};
  uint32_t max_invocations = 1;
  std::array<uint32_t, 3> max_group_count{1, 1, 1};
  // The device's multiprocessors (NVIDIA SMs, AMD compute units) where a
  // Vulkan extension tells them, else 0; and its sub-group size. Only
  // choose_local_size reads them.
  uint32_t compute_units = 0;
  uint32_t subgroup_size = 0;
};

// One vkCmdDispatch: a box of work-groups that all have the same local size.
struct Dispatch {
  std::array<uint32_t, 3> local_size{1, 1, 1};
  std::array<uint32_t, 3> group_count{1, 1, 1};
  // OpenCL group id of this dispatch's first work-group: vkCmdDispatchBase's
  // base, so that gl_WorkGroupID starts there, unless the plan has
  // offsets_in_kernel (then 0).
  std::array<uint32_t, 3> base_group{0, 0, 0};
  // With offsets_in_kernel (else 0): the OpenCL group id of the first
  // work-group, which the kernel adds to gl_WorkGroupID; and the global id of
  // the first work-item, group_offset * enqueued local size + global offset,
  // which the kernel adds to gl_WorkGroupID * enqueued local size +
  // gl_LocalInvocationID.
  std::array<uint32_t, 3> group_offset{0, 0, 0};
  std::array<uint32_t, 3> global_id_base{0, 0, 0};
};

// The ND-range with every value the kernel may read, all in 32 bits, and the
// dispatches that cover it.
struct DispatchPlan {
  uint32_t dims = 1;
  std::array<uint32_t, 3> global{1, 1, 1};
  std::array<uint32_t, 3> enqueued_local{1, 1, 1};
  std::array<uint32_t, 3> offset{0, 0, 0};
  std::array<uint32_t, 3> num_groups{1, 1, 1};
  // Empty when some global size is 0 (a no-op, as in OpenCL 2.1 and later).
  std::vector<Dispatch> dispatches;
  // Whether the kernel adds each dispatch's offsets (the specialization
  // constant kOffsetsInKernelSpecId): where there is a global offset, or a
  // dispatch's groups end past maxComputeWorkGroupCount, which vkCmdDispatchBase
  // does not allow. Otherwise the bases place the groups and the kernel adds nothing.
  bool offsets_in_kernel = false;
};

// The local size the runtime picks when the caller gives none: per dimension
// in order x, y, z, the largest power of two that is at most the remaining
// budget (min(256, max_invocations), divided by what earlier dimensions took),
// the device's limit for that dimension and the global size. It need not
// divide the global size: non-uniform edges are handled by split dispatches.
std::array<uint32_t, 3> choose_local_size(const NDRange& range, const DispatchLimits& limits);

// Splits a range whose global size is not a multiple of the local size into
// up to 2^dims boxes (interior with the enqueued local size, edges with the
// remainder, which needs its own pipeline since local size is a
// specialization constant), and any box with more groups than the device
// allows per dispatch into chunks. `required` is the kernel's
// reqd_work_group_size (all 0 when none). Throws Error for a bad range or a
// local size above the device's limits.
DispatchPlan plan_dispatch(const NDRange& range, const DispatchLimits& limits,
                           std::array<uint32_t, 3> required = {0, 0, 0});

}  // namespace vkcl
