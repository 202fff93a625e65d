// Work-group reductions (shaders/conformance/reduction.cl) through a
// kernel-scope __local array, a __local pointer argument and global memory,
// for work-group sizes that are powers of two and not (odd ones too) up to
// the device's maximum, under each form of the work-group barrier:
// barrier(flags), work_group_barrier(flags) and work_group_barrier(flags,
// scope) for each scope that orders the tile for the whole work-group. Every
// work-item's view of every round's total is checked against the host's sum.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "conformance.h"

namespace vkcl::conformance {
namespace {

constexpr uint32_t kRounds = 3;

struct Form {
  std::string name;
  OpenCLStd cl_std;
  std::string barrier;  // BARRIER(flags)=...
  bool all_sizes;       // the long size list, else a short one
  bool global_tile;     // also through global memory (sub_group scope orders global memory for the sub-group only)
  // The instruction each barrier must be, with the tile in local and in global memory.
  std::string local_instruction, global_instruction;
};

const std::string kLocalBarrier = "OpControlBarrier Workgroup Workgroup WorkgroupMemory|AcquireRelease";
const std::string kGlobalBarrier = "OpControlBarrier Workgroup Workgroup UniformMemory|AcquireRelease";
const std::string kBothBarrier = "OpControlBarrier Workgroup Workgroup UniformMemory|WorkgroupMemory|AcquireRelease";
const std::string kGlobalDeviceBarrier = "OpControlBarrier Workgroup Device UniformMemory|AcquireRelease";

const std::vector<Form> kForms{
    {"barrier", OpenCLStd::CL1_2, "barrier(flags)", true, true, kLocalBarrier, kGlobalBarrier},
    {"barrier_local_and_global", OpenCLStd::CL1_2, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)", false, true,
     kBothBarrier, kBothBarrier},
    {"work_group_barrier", OpenCLStd::CL2_0, "work_group_barrier(flags)", false, true, kLocalBarrier, kGlobalBarrier},
    {"work_group_barrier_work_group", OpenCLStd::CL2_0, "work_group_barrier(flags, memory_scope_work_group)", false,
     true, kLocalBarrier, kGlobalBarrier},
    {"work_group_barrier_device", OpenCLStd::CL2_0, "work_group_barrier(flags, memory_scope_device)", false, true,
     kLocalBarrier, kGlobalDeviceBarrier},
    {"work_group_barrier_all_svm_devices", OpenCLStd::CL2_0, "work_group_barrier(flags, memory_scope_all_svm_devices)",
     false, true, kLocalBarrier, kGlobalDeviceBarrier},
    // Local memory is ordered at work-group scope whatever the scope says (OpenCL C 3.0, work_group_barrier).
    {"work_group_barrier_sub_group", OpenCLStd::CL3_0, "work_group_barrier(flags, memory_scope_sub_group)", false,
     false, kLocalBarrier, "OpControlBarrier Workgroup Subgroup UniformMemory|AcquireRelease"},
};

void PrintTo(const Form& f, std::ostream* os) { *os << f.barrier; }

const char* kKernels[] = {"reduce_local_array", "reduce_local_arg", "reduce_global"};

std::vector<uint32_t> sizes(bool all) {
  const std::vector<uint32_t> full{1,   2,   3,   4,   5,   7,   8,   13,  16,  31,  32,   33,   63,   64,   65,  100,
                                   127, 128, 129, 200, 255, 256, 257, 333, 511, 512, 513, 640, 777, 1000, 1023, 1024};
  const std::vector<uint32_t> few{1, 3, 7, 64, 100, 255, 256, 333, 1024};
  const uint32_t max = max_local_size(1024);  // reduction.cl's MAX_LOCAL_SIZE
  std::vector<uint32_t> out;
  for (uint32_t n : all ? full : few) out.push_back(std::min(n, max));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

uint32_t value_of(uint32_t input, uint32_t round) { return input ^ (round * 0x9E3779B9u); }

using Params = std::tuple<Form, const char*>;
class Reduction : public ::testing::TestWithParam<Params> {};

TEST_P(Reduction, EveryWorkItemSeesTheSum) {
  const auto& [form, kernel_name] = GetParam();
  const bool global = std::string(kernel_name) == "reduce_global";
  Program* prog = nullptr;
  try {
    prog = &program("conformance/reduction.cl", form.cl_std, {"BARRIER(flags)=" + form.barrier});
  } catch (const CompileError& e) {
    FAIL() << form.barrier << " does not compile:\n" << e.what();
  }
  const size_t barriers = expect_barriers("conformance/reduction.cl", form.cl_std, {"BARRIER(flags)=" + form.barrier},
                                         kernel_name, {global ? form.global_instruction : form.local_instruction});
  Kernel kernel = prog->kernel(kernel_name);
  std::mt19937 rng(12345);
  uint64_t dispatches = 0, groups_checked = 0;
  const std::vector<uint32_t> all = sizes(form.all_sizes);
  for (uint32_t n : all)
    for (uint32_t rep = 0; rep < options().repeat; ++rep) {
      const uint32_t groups = std::clamp(4096u / n, 3u, 64u), items = groups * n;
      std::vector<uint32_t> in(items);
      for (uint32_t& v : in) v = rng();
      Buffer input(device(), items * 4), views(device(), size_t(items) * kRounds * 4), scratch(device(), items * 4);
      input.write(in);
      views.fill(0xEEEEEEEEu);
      kernel.set_arg("in", input);
      kernel.set_arg("views", views);
      kernel.set_arg("rounds", kRounds);
      if (std::string(kernel_name) == "reduce_local_arg") kernel.set_local_arg("tile", n * 4);
      if (global) kernel.set_arg("scratch", scratch);
      device().run(kernel, NDRange::make({items}, {n}));
      const std::vector<uint32_t> got = views.read<uint32_t>(size_t(items) * kRounds);
      int wrong = 0;
      for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t r = 0; r < kRounds; ++r) {
          uint32_t sum = 0;
          for (uint32_t i = 0; i < n; ++i) sum += value_of(in[g * n + i], r);
          for (uint32_t i = 0; i < n; ++i) {
            const uint32_t seen = got[size_t(g * n + i) * kRounds + r];
            if (seen != sum && ++wrong <= 3)
              ADD_FAILURE() << kernel_name << " with " << form.barrier << ", local size " << n << ": group " << g
                            << " round " << r << " work-item " << i << " saw " << seen << ", the sum is " << sum;
          }
        }
      EXPECT_EQ(wrong, 0) << kernel_name << " with " << form.barrier << ", local size " << n << ": " << wrong
                          << " wrong views";
      ++dispatches;
      groups_checked += groups;
    }
  std::ostringstream detail;
  detail << all.size() << " local sizes " << all.front() << ".." << all.back() << ", " << groups_checked
         << " work-groups; " << barriers << " x " << (global ? form.global_instruction : form.local_instruction);
  record_iterations(dispatches, detail.str());
}

// Every form with every kernel, except global memory under a sub-group scope,
// which orders global memory for the sub-group only.
std::vector<Params> cases() {
  std::vector<Params> all;
  for (const Form& f : kForms)
    for (const char* k : kKernels)
      if (f.global_tile || std::string(k) != "reduce_global") all.emplace_back(f, k);
  return all;
}

INSTANTIATE_TEST_SUITE_P(Forms, Reduction, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Params>& info) {
                           return std::get<0>(info.param).name + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace vkcl::conformance
