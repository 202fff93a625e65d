#include "vkcl/ndrange.h"

#include <algorithm>
#include <string>

#include "vkcl/error.h"

namespace vkcl {
namespace {

std::string triple(const std::array<uint64_t, 3>& v, uint32_t dims) {
  std::string s = std::to_string(v[0]);
  for (uint32_t d = 1; d < dims; ++d) s += "x" + std::to_string(v[d]);
  return s;
}

uint32_t floor_power_of_two(uint64_t v) {
  uint32_t p = 1;
  while (p <= v / 2 && p < (1u << 31)) p <<= 1;
  return p;
}

// One dimension of the split: a run of work-groups with the same local size.
struct Segment {
  uint32_t local;
  uint32_t group_begin;
  uint32_t group_count;
};

}  // namespace

NDRange NDRange::make(std::initializer_list<uint64_t> global, std::initializer_list<uint64_t> local,
                      std::initializer_list<uint64_t> offset) {
  if (global.size() < 1 || global.size() > 3)
    throw Error("NDRange::make: give 1 to 3 global sizes, not " + std::to_string(global.size()));
  if ((local.size() && local.size() != global.size()) || (offset.size() && offset.size() != global.size()))
    throw Error("NDRange::make: local and offset need as many entries as global (" + std::to_string(global.size()) + ") or none");
  NDRange r;
  r.dims = static_cast<uint32_t>(global.size());
  std::copy(global.begin(), global.end(), r.global.begin());
  std::copy(local.begin(), local.end(), r.local.begin());
  std::copy(offset.begin(), offset.end(), r.offset.begin());
  return r;
}

std::array<uint32_t, 3> choose_local_size(const NDRange& range, const DispatchLimits& limits) {
  std::array<uint32_t, 3> local{1, 1, 1};
  uint64_t budget = std::min<uint64_t>(256, std::max<uint32_t>(limits.max_invocations, 1));
  for (uint32_t d = 0; d < range.dims && d < 3; ++d) {
    uint64_t cap = std::min<uint64_t>({budget, std::max<uint32_t>(limits.max_local_size[d], 1),
                                       std::max<uint64_t>(range.global[d], 1)});
    local[d] = floor_power_of_two(cap);
    budget /= local[d];
  }
  // A small range in large work-groups leaves multiprocessors idle: 32x24
  // work-items in 32x8 groups run on 3 of the H100's 132 SMs, and the
  // corpus's algo_mandelbrot_fixed (a long 64-bit loop per work-item) took
  // 1.65x NVIDIA's time so. Smaller groups, down to one sub-group, until
  // every multiprocessor has one; the last dimension shrinks first, so that
  // dimension 0 keeps its neighbouring work-items (coalesced accesses).
  auto groups = [&] {
    uint64_t n = 1;
    for (uint32_t d = 0; d < range.dims && d < 3; ++d) n *= (std::max<uint64_t>(range.global[d], 1) + local[d] - 1) / local[d];
    return n;
  };
  const uint64_t smallest = std::max<uint32_t>(limits.subgroup_size, 1);
  while (limits.compute_units != 0 && groups() < limits.compute_units &&
         uint64_t{local[0]} * local[1] * local[2] > smallest) {
    uint32_t d = 2;
    while (local[d] == 1) --d;
    local[d] /= 2;
  }
  return local;
}

DispatchPlan plan_dispatch(const NDRange& in, const DispatchLimits& limits, std::array<uint32_t, 3> required) {
  if (in.dims < 1 || in.dims > 3) throw Error("NDRange: dims must be 1, 2 or 3, not " + std::to_string(in.dims));
  const uint32_t dims = in.dims;
  NDRange r = in;
  for (uint32_t d = dims; d < 3; ++d) r.global[d] = 1, r.local[d] = 1, r.offset[d] = 0;

  for (uint32_t d = 0; d < dims; ++d) {
    std::string where = " in dimension " + std::to_string(d);
    if (r.global[d] > UINT32_MAX) throw Error("NDRange: global size " + std::to_string(r.global[d]) + where + " exceeds 2^32 - 1");
    if (r.offset[d] + r.global[d] > (uint64_t{1} << 32))
      throw Error("NDRange: global offset " + std::to_string(r.offset[d]) + " + global size " + std::to_string(r.global[d]) +
                  where + " exceeds 2^32; work-item ids are 32-bit");
  }

  size_t zero_locals = std::count(r.local.begin(), r.local.begin() + dims, 0u);
  if (zero_locals && zero_locals != dims)
    throw Error("NDRange: local size " + triple(r.local, dims) + " has a 0; give every dimension or none");
  const bool has_required = required[0] || required[1] || required[2];
  if (has_required) {
    auto reqd = [&] {
      return "the kernel's reqd_work_group_size " + std::to_string(required[0]) + "x" + std::to_string(required[1]) +
             "x" + std::to_string(required[2]);
    };
    if (zero_locals) std::copy(required.begin(), required.begin() + dims, r.local.begin());
    for (uint32_t d = 0; d < dims; ++d)
      if (r.local[d] != required[d])
        throw Error("NDRange: local size " + triple(r.local, dims) + " differs from " + reqd());
    // The compiler takes the enqueued local size from reqd_work_group_size.
    for (uint32_t d = dims; d < 3; ++d)
      if (required[d] != 1)
        throw Error("NDRange: " + std::to_string(dims) + " dimension(s), but " + reqd() + " needs " + std::to_string(d + 1));
  } else if (zero_locals) {
    auto chosen = choose_local_size(r, limits);
    std::copy(chosen.begin(), chosen.end(), r.local.begin());
  }

  uint64_t invocations = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    if (r.local[d] > limits.max_local_size[d])
      throw Error("NDRange: local size " + std::to_string(r.local[d]) + " in dimension " + std::to_string(d) +
                  " exceeds the device's maxComputeWorkGroupSize[" + std::to_string(d) + "] = " +
                  std::to_string(limits.max_local_size[d]));
    invocations *= r.local[d];
  }
  if (invocations > limits.max_invocations)
    throw Error("NDRange: local size " + triple(r.local, dims) + " = " + std::to_string(invocations) +
                " work-items exceeds the device's maxComputeWorkGroupInvocations = " + std::to_string(limits.max_invocations));

  DispatchPlan plan;
  plan.dims = dims;
  for (uint32_t d = 0; d < 3; ++d) {
    plan.global[d] = static_cast<uint32_t>(r.global[d]);
    plan.enqueued_local[d] = static_cast<uint32_t>(r.local[d]);
    plan.offset[d] = static_cast<uint32_t>(r.offset[d]);
    plan.num_groups[d] = static_cast<uint32_t>((r.global[d] + r.local[d] - 1) / r.local[d]);
  }
  if (std::find(plan.global.begin(), plan.global.end(), 0u) != plan.global.end()) return plan;

  std::array<std::vector<Segment>, 3> segments;
  for (uint32_t d = 0; d < 3; ++d) {
    const uint32_t local = plan.enqueued_local[d];
    const uint32_t full = plan.global[d] / local, rest = plan.global[d] % local;
    const uint32_t chunk = std::max<uint32_t>(limits.max_group_count[d], 1);
    for (uint32_t begin = 0; begin < full; begin += std::min(chunk, full - begin))
      segments[d].push_back({local, begin, std::min(chunk, full - begin)});
    if (rest) segments[d].push_back({rest, full, 1});
  }
  for (const Segment& z : segments[2])
    for (const Segment& y : segments[1])
      for (const Segment& x : segments[0]) {
        Dispatch& d = plan.dispatches.emplace_back();
        d.local_size = {x.local, y.local, z.local};
        d.group_count = {x.group_count, y.group_count, z.group_count};
        d.group_offset = {x.group_begin, y.group_begin, z.group_begin};
        // Within 32 bits: offset + global size was checked to fit.
        for (uint32_t i = 0; i < 3; ++i) d.global_id_base[i] = d.group_offset[i] * plan.enqueued_local[i] + plan.offset[i];
      }
  plan.offsets_in_kernel = std::any_of(plan.offset.begin(), plan.offset.end(), [](uint32_t o) { return o != 0; });
  for (const Dispatch& d : plan.dispatches)
    for (uint32_t i = 0; i < 3; ++i)
      if (uint64_t(d.group_offset[i]) + d.group_count[i] > limits.max_group_count[i]) plan.offsets_in_kernel = true;
  if (!plan.offsets_in_kernel)
    for (Dispatch& d : plan.dispatches) {
      d.base_group = d.group_offset;
      d.group_offset = d.global_id_base = {0, 0, 0};
    }
  return plan;
}

}  // namespace vkcl
