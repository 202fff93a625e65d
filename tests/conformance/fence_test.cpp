// Fences in message passing (shaders/conformance/message_passing.cl): a
// reader that sees the flag (a relaxed atomic) must see the data, when the
// writer's fence releases and the reader's acquires at a scope that holds
// both. atomic_work_item_fence for each releasing and acquiring order and
// each scope, and mem_fence / write_mem_fence + read_mem_fence (work-group
// scope), between the two halves of a sub-group, within a work-group
// through __local and global memory, and across work-groups through global
// memory (device scopes only). Unlike tests/host/synchronization_test's
// fence.cl, which passes one message per work-group with a plain flag, these
// pair every work-item.
#include <gtest/gtest.h>

#include <sstream>
#include <tuple>

#include "conformance.h"

namespace vkcl::conformance {
namespace {

constexpr uint32_t kWords = 4;

enum class Reach { SubGroup, WorkGroup, Device };  // the widest pair the scope orders

struct Form {
  std::string name, release, acquire;
  Reach reach;
  // Their OpMemoryBarrier semantics' ordering, and memory scope on global memory.
  std::string release_order, acquire_order, scope;
};

std::string semantics_order(const std::string& order) {
  return order == "release" ? "Release" : order == "acquire" ? "Acquire" : "AcquireRelease";  // seq_cst too
}

std::vector<Form> forms() {
  std::vector<Form> all;
  const std::tuple<const char*, Reach, const char*> scopes[] = {{"sub_group", Reach::SubGroup, "Subgroup"},
                                                               {"work_group", Reach::WorkGroup, "Workgroup"},
                                                               {"device", Reach::Device, "Device"},
                                                               {"all_svm_devices", Reach::Device, "Device"}};
  const std::pair<const char*, const char*> orders[] = {
      {"release", "acquire"}, {"acq_rel", "acq_rel"}, {"seq_cst", "seq_cst"}, {"release", "seq_cst"}, {"seq_cst", "acquire"}};
  for (auto [scope, reach, spirv_scope] : scopes)
    for (auto [release, acquire] : orders) {
      auto fence = [&](const char* order) {
        return std::string("atomic_work_item_fence(flags, memory_order_") + order + ", memory_scope_" + scope + ")";
      };
      all.push_back({std::string(release) + "_" + acquire + "_" + scope, fence(release), fence(acquire), reach,
                     semantics_order(release), semantics_order(acquire), spirv_scope});
    }
  all.push_back({"mem_fence", "mem_fence(flags)", "mem_fence(flags)", Reach::WorkGroup, "AcquireRelease",
                 "AcquireRelease", "Workgroup"});
  all.push_back({"write_mem_fence_read_mem_fence", "write_mem_fence(flags)", "read_mem_fence(flags)", Reach::WorkGroup,
                 "Release", "Acquire", "Workgroup"});
  return all;
}
void PrintTo(const Form& f, std::ostream* os) { *os << f.release << " ... " << f.acquire; }

struct Pattern {
  const char* kernel;
  Reach needs;
};
const Pattern kPatterns[] = {{"across_groups", Reach::Device},
                             {"within_group_local", Reach::WorkGroup},
                             {"within_group_global", Reach::WorkGroup},
                             {"within_sub_group_local", Reach::SubGroup},
                             {"within_sub_group_global", Reach::SubGroup}};
void PrintTo(const Pattern& p, std::ostream* os) { *os << p.kernel; }

uint32_t data_of(uint32_t pair, uint32_t w) { return pair * 0x10u + w + 1u; }

using Params = std::tuple<Form, Pattern>;
class MessagePassing : public ::testing::TestWithParam<Params> {};

TEST_P(MessagePassing, ReaderThatSeesTheFlagSeesTheData) {
  const auto& [form, pattern] = GetParam();
  if (!device().features().subgroup_basic) GTEST_SKIP() << "the device has no sub-group operations in compute";
  Program* prog = nullptr;
  try {
    prog = &program("conformance/message_passing.cl", OpenCLStd::CL2_0,
                    {"RELEASE_FENCE(flags)=" + form.release, "ACQUIRE_FENCE(flags)=" + form.acquire});
  } catch (const CompileError& e) {
    FAIL() << form.release << " ... " << form.acquire << " does not compile:\n" << e.what();
  }
  // The fences' instructions: on local memory a scope wider than the work-group is narrowed to Workgroup.
  const bool local = std::string(pattern.kernel).ends_with("_local");
  const std::string scope = local && form.scope == "Device" ? "Workgroup" : form.scope;
  const std::string storage = local ? "WorkgroupMemory" : "UniformMemory";
  std::vector<std::string> expected{"OpMemoryBarrier " + scope + " " + storage + "|" + form.release_order,
                                    "OpMemoryBarrier " + scope + " " + storage + "|" + form.acquire_order};
  if (local) expected.push_back("OpControlBarrier Workgroup Workgroup WorkgroupMemory|AcquireRelease");  // after atomic_init
  expect_barriers("conformance/message_passing.cl", OpenCLStd::CL2_0,
                  {"RELEASE_FENCE(flags)=" + form.release, "ACQUIRE_FENCE(flags)=" + form.acquire}, pattern.kernel,
                  expected);
  Kernel kernel = prog->kernel(pattern.kernel);
  const uint32_t max = max_local_size(256);
  struct Shape {
    uint32_t local, groups;
  };
  std::vector<Shape> shapes = pattern.needs == Reach::Device ? std::vector<Shape>{{64, 16}, {max, 8}, {37, 10}}
                                                             : std::vector<Shape>{{64, 8}, {max, 4}, {37, 5}};
  uint64_t dispatches = 0, messages = 0, seen_total = 0;
  for (Shape shape : shapes)
    for (uint32_t rep = 0; rep < options().repeat; ++rep) {
      const uint32_t n = std::min(shape.local, max), items = n * shape.groups;
      Buffer out(device(), size_t(items) * (kWords + 2) * 4), data(device(), size_t(items) * kWords * 4),
          flags(device(), items * 4);
      out.fill(0xEEEEEEEEu);
      data.fill(0u);
      flags.fill(0u);
      kernel.set_arg("out", out);
      for (const KernelArg& arg : kernel.reflection().args) {
        if (arg.name == "data") {
          if (arg.kind == ArgKind::LocalPointer) kernel.set_local_arg(arg.index, n * kWords * 4);
          else kernel.set_arg(arg.index, data);
        } else if (arg.name == "flags") {
          if (arg.kind == ArgKind::LocalPointer) kernel.set_local_arg(arg.index, n * 4);
          else kernel.set_arg(arg.index, flags);
        }
      }
      device().run(kernel, NDRange::make({items}, {n}));
      const std::vector<uint32_t> got = out.read<uint32_t>(size_t(items) * (kWords + 2));
      // Which pair numbers have a reader: as the kernels number them.
      std::vector<uint32_t> pairs;
      if (pattern.needs == Reach::Device) {
        for (uint32_t p = 0; p < (shape.groups / 2) * n; ++p) pairs.push_back(p);
      } else if (pattern.needs == Reach::WorkGroup) {
        for (uint32_t g = 0; g < shape.groups; ++g)
          for (uint32_t lid = 0; lid < n / 2; ++lid) pairs.push_back(g * n + lid);
      } else {
        // Writers: even lanes with a next lane in their sub-group; the host
        // finds them from the rows readers wrote (a row with 0xEEEEEEEE was
        // never written: not a pair).
        for (uint32_t i = 0; i < items; ++i)
          if (got[size_t(i) * (kWords + 2)] != 0xEEEEEEEEu) pairs.push_back(i);
        EXPECT_GE(pairs.size(), size_t(shape.groups) * (n / 2) / 2) << "too few sub-group messages";
      }
      int wrong = 0;
      for (uint32_t p : pairs) {
        const uint32_t* row = &got[size_t(p) * (kWords + 2)];
        if (row[0] > 1) {
          if (++wrong <= 3) ADD_FAILURE() << pattern.kernel << ", pair " << p << ": no reader row (" << row[0] << ")";
          continue;
        }
        seen_total += row[0];
        for (uint32_t w = 0; w < kWords; ++w) {
          const uint32_t want = row[0] ? data_of(p, w) : 0u;
          if (row[1 + w] != want && ++wrong <= 3)
            ADD_FAILURE() << pattern.kernel << " with " << form.release << " ... " << form.acquire << ", local size "
                          << n << ": pair " << p << " saw the flag but data word " << w << " = " << row[1 + w]
                          << ", expected " << want;
        }
      }
      EXPECT_EQ(wrong, 0) << pattern.kernel << ", local size " << n << ": " << wrong << " wrong messages";
      messages += pairs.size();
      ++dispatches;
    }
  record_iterations(dispatches, std::to_string(messages) + " messages, " + std::to_string(seen_total) + " flags seen");
}

// The pairs each fence's scope holds: a sub-group scope only within a
// sub-group, a work-group scope only within a work-group.
std::vector<Params> cases() {
  std::vector<Params> all;
  for (const Form& f : forms())
    for (const Pattern& p : kPatterns)
      if (int(f.reach) >= int(p.needs)) all.emplace_back(f, p);
  return all;
}

INSTANTIATE_TEST_SUITE_P(Fences, MessagePassing, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Params>& info) {
                           return std::get<0>(info.param).name + "_" + std::get<1>(info.param).kernel;
                         });

}  // namespace
}  // namespace vkcl::conformance
