// Sub-group barriers (shaders/conformance/sub_group_patterns.cl), both
// overloads, with local and global fences: exchanges within each sub-group
// through global memory, and exchanges that only one sub-group of the
// work-group runs (the first, a middle one, the last, which is partial when
// the work-group size is not a multiple of the sub-group size). The __local
// exchange of every sub-group is tests/host/synchronization_test's; the
// sub-group size comes from synchronization/sub_group_barrier.cl's
// sub_group_ids, as there.
#include <gtest/gtest.h>

#include <sstream>

#include "conformance.h"

namespace vkcl::conformance {
namespace {

constexpr uint32_t kRounds = 4, kSkipped = 0xFFFFFFFFu;

uint32_t sub_group_size() {
  static const uint32_t size = [] {
    Kernel kernel = program("conformance/synchronization/sub_group_barrier.cl", OpenCLStd::CL2_0).kernel("sub_group_ids");
    Buffer out(device(), 6 * sizeof(uint32_t));
    kernel.set_arg("out", out);
    device().run(kernel, NDRange::make({1}, {1}));
    return out.read<uint32_t>(6)[1];  // get_max_sub_group_size()
  }();
  return size;
}

uint32_t value_of(uint32_t group, uint32_t lid, uint32_t round) { return group * 0x10000u + lid * 0x10u + round + 1u; }

struct Form {
  std::string name, call;
  std::string local_scope, global_scope;  // the memory scope of its OpControlBarrier on each memory
};
// A scope wider than the work-group means nothing for local memory and is narrowed to Workgroup.
const std::vector<Form> kForms{
    {"sub_group_barrier", "sub_group_barrier(flags)", "Subgroup", "Subgroup"},
    {"sub_group_barrier_sub_group", "sub_group_barrier(flags, memory_scope_sub_group)", "Subgroup", "Subgroup"},
    {"sub_group_barrier_work_group", "sub_group_barrier(flags, memory_scope_work_group)", "Workgroup", "Workgroup"},
    {"sub_group_barrier_device", "sub_group_barrier(flags, memory_scope_device)", "Workgroup", "Device"},
};
void PrintTo(const Form& f, std::ostream* os) { *os << f.call; }

const char* kKernels[] = {"exchange_global_all", "exchange_local_one", "exchange_global_one"};

using Params = std::tuple<Form, const char*>;
class SubGroupBarrier : public ::testing::TestWithParam<Params> {};

TEST_P(SubGroupBarrier, ExchangesWithinTheSubGroup) {
  const auto& [form, kernel_name] = GetParam();
  if (!device().features().subgroup_basic) GTEST_SKIP() << "the device has no sub-group operations in compute";
  Program* prog = nullptr;
  try {
    prog = &program("conformance/sub_group_patterns.cl", OpenCLStd::CL2_0, {"SUB_GROUP_BARRIER(flags)=" + form.call});
  } catch (const CompileError& e) {
    FAIL() << form.call << " does not compile:\n" << e.what();
  }
  const bool local = std::string(kernel_name).find("local") != std::string::npos;
  const std::string instruction = "OpControlBarrier Subgroup " + (local ? form.local_scope : form.global_scope) +
                                  (local ? " WorkgroupMemory" : " UniformMemory") + "|AcquireRelease";
  expect_barriers("conformance/sub_group_patterns.cl", OpenCLStd::CL2_0, {"SUB_GROUP_BARRIER(flags)=" + form.call},
                  kernel_name, {instruction});
  Kernel kernel = prog->kernel(kernel_name);
  const uint32_t s = sub_group_size(), max = max_local_size();
  const bool one = std::string(kernel_name).ends_with("_one");
  // Multiples of the sub-group size and not (partial last sub-groups), a
  // work-group smaller than a sub-group, the largest.
  std::vector<uint32_t> sizes{s * 2, s * 3 + s / 2 + 1, 37, std::max(1u, s / 2 - 1), 100, max};
  uint64_t dispatches = 0;
  for (uint32_t n : sizes) {
    n = std::min(n, max);
    const uint32_t count = (n + s - 1) / s, groups = 3, items = groups * n;
    std::vector<uint32_t> choices{0};
    if (one) choices = {0, count / 2, count - 1};
    for (uint32_t chosen : choices)
      for (uint32_t rep = 0; rep < options().repeat; ++rep) {
        Buffer out(device(), size_t(items) * kRounds * 4), scratch(device(), items * 4);
        out.fill(0xEEEEEEEEu);
        kernel.set_arg("out", out);
        for (const KernelArg& arg : kernel.reflection().args) {
          if (arg.name == "chosen") kernel.set_arg(arg.index, chosen);
          if (arg.name == "scratch") kernel.set_arg(arg.index, scratch);
          if (arg.name == "tile") kernel.set_local_arg(arg.index, n * 4);
        }
        device().run(kernel, NDRange::make({items}, {n}));
        const std::vector<uint32_t> got = out.read<uint32_t>(size_t(items) * kRounds);
        int wrong = 0;
        for (uint32_t g = 0; g < groups; ++g)
          for (uint32_t lid = 0; lid < n; ++lid) {
            const uint32_t id = lid / s, lane = lid % s, size = std::min(s, n - id * s);
            const bool exchanges = !one || id == chosen;
            for (uint32_t r = 0; r < kRounds; ++r) {
              const uint32_t want = exchanges ? value_of(g, id * s + (lane + 1) % size, r) : kSkipped;
              const uint32_t seen = got[size_t(g * n + lid) * kRounds + r];
              if (seen != want && ++wrong <= 3)
                ADD_FAILURE() << kernel_name << " with " << form.call << ", local size " << n << " (sub-groups of "
                              << s << "), chosen " << chosen << ": group " << g << " work-item " << lid << " round "
                              << r << " read " << seen << ", expected " << want;
            }
          }
        EXPECT_EQ(wrong, 0) << kernel_name << " with " << form.call << ", local size " << n << ": " << wrong
                            << " wrong reads";
        ++dispatches;
      }
  }
  record_iterations(dispatches, "sub-group size " + std::to_string(s) + "; " + instruction);
}

INSTANTIATE_TEST_SUITE_P(Forms, SubGroupBarrier, ::testing::Combine(::testing::ValuesIn(kForms), ::testing::ValuesIn(kKernels)),
                         [](const ::testing::TestParamInfo<Params>& info) {
                           return std::get<0>(info.param).name + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace vkcl::conformance
