// The OpenCL C synchronization builtins on the device. Each kernel under
// shaders/conformance/synchronization gives the right answer only if the
// barrier or fence under test does its job (neighbour exchanges across
// lavapipe's SIMD chunks, message passing between two work-items); each is
// built from source under the Vulkan memory model (build_program's choice on
// a device that has it) and under GLSL450, run for several local sizes
// (non-powers of two, non-uniform global sizes), and every work-item's output
// row is checked against a reference computed here.
//
// What lavapipe can show: without its barrier the work-group exchange fails
// there, and without its fences the local message passing never sees the
// flag (-O2 hoists the load). A sub-group, and a 2-item work-group, runs in
// lockstep in one SIMD chunk there, so a missing sub-group barrier or a
// missing fence on one side only goes unnoticed; a GPU tests those further.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

constexpr uint32_t kRounds = 4;  // ROUNDS in the exchange kernels
constexpr uint32_t kWords = 4;   // WORDS in fence.cl

// One work-item of a 1-D ND-range, numbered as OpenCL numbers it.
struct Item {
  uint32_t group = 0, lid = 0;
  uint32_t local_size = 0;  // of its work-group: smaller at a non-uniform edge
  uint32_t enqueued_local_size = 0;
};

// The words a work-item must write to `out`; nullopt where any value is right.
using Row = std::vector<std::optional<uint32_t>>;
using Reference = std::function<Row(const Item&)>;

struct Shape {
  uint32_t global, local;
};

// A kernel, the ranges it runs over, and what it must write.
struct KernelCheck {
  std::string kernel;
  std::vector<Shape> shapes;
  Reference reference;
};

// One builtin call under test: a file's kernels, with `defines` choosing the call.
struct Case {
  std::string name;  // for the test's name
  std::string call;  // in words, for failure messages
  std::string file;  // under shaders/conformance/synchronization
  OpenCLStd cl_std;
  std::vector<std::string> defines;
  std::vector<KernelCheck> checks;
};

// --- References ------------------------------------------------------------

uint32_t value_of(uint32_t group, uint32_t lid, uint32_t round) { return group * 0x10000u + lid * 0x10u + round + 1; }

Row exchange_rows(const Item& item, uint32_t partner) {
  Row row;
  for (uint32_t round = 0; round < kRounds; ++round) row.push_back(value_of(item.group, partner, round));
  return row;
}

// work_group_barrier.cl: the value written by work-item (lid + size / 2 + 1) % size.
Row work_group_exchange(const Item& item) {
  return exchange_rows(item, (item.lid + item.local_size / 2 + 1) % item.local_size);
}

uint32_t device_sub_group_size();

// Sub-group s holds local ids s * S up to the next multiple of S (S: the
// sub-group size), the layout lower_builtin_variables assumes.
struct SubGroup {
  uint32_t id, lane, size, count;
};
SubGroup sub_group_of(uint32_t lid, uint32_t local_size) {
  const uint32_t s = device_sub_group_size();
  return {lid / s, lid % s, std::min(s, local_size - lid / s * s), (local_size + s - 1) / s};
}

// sub_group_barrier.cl, sub_group_exchange: the value written by lane (lane + 1) % size of its sub-group.
Row sub_group_exchange(const Item& item) {
  SubGroup sg = sub_group_of(item.lid, item.local_size);
  return exchange_rows(item, sg.id * device_sub_group_size() + (sg.lane + 1) % sg.size);
}

// sub_group_barrier.cl, sub_group_ids.
Row sub_group_ids(const Item& item) {
  SubGroup sg = sub_group_of(item.lid, item.local_size);
  const uint32_t s = device_sub_group_size();
  return {sg.size, s, sg.count, (item.enqueued_local_size + s - 1) / s, sg.id, sg.lane};
}

// fence.cl: the flag (group + 1), the data words, and any number of spins.
Row message_passing(const Item& item) {
  Row row{item.group + 1};
  for (uint32_t w = 0; w < kWords; ++w) row.push_back((item.group + 1) * 0x100u + w);
  row.push_back(std::nullopt);
  return row;
}

// --- Building and running ----------------------------------------------------

const char* std_name(OpenCLStd s) { return s == OpenCLStd::CL1_2 ? "CL1.2" : s == OpenCLStd::CL2_0 ? "CL2.0" : "CL3.0"; }

// The device a memory model is tested on: build_program picks the model
// from the device, so GLSL450 runs on the same device with
// vulkanMemoryModel withheld, as on a device that lacks it.
Device& device_for(MemoryModel model) {
  if (model == MemoryModel::Vulkan) return test::device();
  // Never destroyed, like the programs built on it: at exit, the validation
  // layer crashed destroying pipelines of this second device after the first
  // one had gone (not seen while the process runs).
  static Device& without_memory_model = *new Device([] {
    DeviceOptions options;
    options.withheld_features.vulkan_memory_model = options.withheld_features.vulkan_memory_model_device_scope = true;
    return Device::create(options);
  }());
  return without_memory_model;
}

// Built once per (source, options, memory model), as a user would.
Program& program_for(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines,
                     MemoryModel model) {
  static std::map<std::string, Program>& programs = *new std::map<std::string, Program>;
  std::string key = file + "|" + std_name(cl_std) + "|" + std::to_string(int(model));
  for (const std::string& d : defines) key += "|" + d;
  if (auto it = programs.find(key); it != programs.end()) return it->second;

  const std::string path = std::filesystem::path(VKCL_SYNCHRONIZATION_SHADERS_DIR) / file;
  const std::string source = test::read_text(path);
  CompileOptions options;
  options.cl_std = cl_std;
  options.defines = defines;
  Program program = build_program(device_for(model), source, path, options);
  if (program.reflection().features.vulkan_memory_model != (model == MemoryModel::Vulkan))
    throw std::logic_error("build_program chose the wrong memory model for " + key);
  return programs.emplace(key, std::move(program)).first->second;
}

std::string describe(const Row& row) {
  std::ostringstream s;
  s << "{";
  for (size_t w = 0; w < row.size(); ++w) {
    s << (w ? ", " : "");
    if (row[w]) s << *row[w]; else s << "*";
  }
  s << "}";
  return s.str();
}

// Runs `check.kernel` over `shape` and compares each work-item's row of `out`
// with the reference, naming at most a few wrong work-items. Other arguments:
// a __local pointer gets one uint per work-item, a global pointer a zeroed
// scratch buffer as large as `out`.
void run_and_check(Device& dev, Program& program, const KernelCheck& check, Shape shape, const std::string& what) {
  Kernel kernel = program.kernel(check.kernel);
  const size_t width = check.reference(Item{0, 0, shape.local, shape.local}).size();
  const size_t words = size_t(shape.global) * width;
  Buffer out(dev, words * 4), scratch(dev, words * 4);
  out.fill(std::byte{0xEE});  // a work-item that never wrote shows up
  scratch.fill(std::byte{0});
  for (const KernelArg& arg : kernel.reflection().args) {
    if (arg.name == "out") kernel.set_arg(arg.index, out);
    else if (arg.kind == ArgKind::LocalPointer) kernel.set_local_arg(arg.index, shape.local * sizeof(uint32_t));
    else kernel.set_arg(arg.index, scratch);
  }
  dev.run(kernel, NDRange::make({shape.global}, {shape.local}));

  const std::vector<uint32_t> got = out.read<uint32_t>(words);
  const uint32_t groups = (shape.global + shape.local - 1) / shape.local;
  int wrong = 0;
  for (uint32_t gid = 0; gid < shape.global; ++gid) {
    const uint32_t group = gid / shape.local;
    const Item item{group, gid % shape.local, std::min(shape.local, shape.global - group * shape.local), shape.local};
    const Row want = check.reference(item);
    Row row(got.begin() + gid * width, got.begin() + (gid + 1) * width);
    bool right = true;
    for (size_t w = 0; w < width; ++w) right = right && (!want[w] || want[w] == row[w]);
    if (!right && ++wrong <= 4)
      ADD_FAILURE() << what << ", " << check.kernel << ", global " << shape.global << " local " << shape.local
                    << ": group " << group << " of " << groups << " (size " << item.local_size << "), item "
                    << item.lid << ": expected " << describe(want) << ", got " << describe(row);
  }
  EXPECT_EQ(wrong, 0) << what << ", " << check.kernel << ", global " << shape.global << " local " << shape.local
                      << ": " << wrong << " of " << shape.global << " work-items wrong";
}

uint32_t device_sub_group_size() {
  static const uint32_t size = [] {
    Program& program = program_for("sub_group_barrier.cl", OpenCLStd::CL2_0, {}, MemoryModel::Vulkan);
    Kernel kernel = program.kernel("sub_group_ids");
    Buffer out(test::device(), 6 * sizeof(uint32_t));
    kernel.set_arg("out", out);
    test::device().run(kernel, NDRange::make({1}, {1}));
    return out.read<uint32_t>(6)[1];  // get_max_sub_group_size()
  }();
  return size;
}

// --- The cases -----------------------------------------------------------------

// Powers of two and not, uniform and non-uniform, groups larger than
// lavapipe's 8-wide SIMD chunks (work-items of one chunk run in lockstep and
// would exchange correctly without a barrier).
const std::vector<Shape> kExchangeShapes{{1024, 256}, {437, 100}, {131, 37}, {30, 12}};
// Multiples of the sub-group size and not, a group smaller than a sub-group, non-uniform edges.
const std::vector<Shape> kSubGroupShapes{{256, 64}, {111, 37}, {437, 100}, {7, 3}};
// Two work-items per group; with an odd global size the last group has one.
const std::vector<Shape> kMessageShapes{{256, 2}, {129, 2}};

Case work_group_barrier_case(const std::string& name, OpenCLStd cl_std, const std::string& call) {
  return {name, call, "work_group_barrier.cl", cl_std, {"BARRIER(flags)=" + call},
          {{"exchange_local_array", kExchangeShapes, work_group_exchange},
           {"exchange_local_arg", kExchangeShapes, work_group_exchange},
           {"exchange_global", kExchangeShapes, work_group_exchange}}};
}

Case sub_group_barrier_case(const std::string& name, OpenCLStd cl_std, const std::string& call) {
  return {name, call, "sub_group_barrier.cl", cl_std, {"SUB_GROUP_BARRIER(flags)=" + call},
          {{"sub_group_exchange", kSubGroupShapes, sub_group_exchange}}};
}

Case fence_case(const std::string& name, OpenCLStd cl_std, const std::string& release, const std::string& acquire) {
  return {name, release + " ... " + acquire, "fence.cl", cl_std,
          {"RELEASE_FENCE(flags)=" + release, "ACQUIRE_FENCE(flags)=" + acquire},
          {{"message_passing_local", kMessageShapes, message_passing},
           {"message_passing_global", kMessageShapes, message_passing}}};
}

std::vector<Case> cases() {
  std::vector<Case> all{
      work_group_barrier_case("barrier", OpenCLStd::CL1_2, "barrier(flags)"),
      fence_case("mem_fence", OpenCLStd::CL1_2, "mem_fence(flags)", "mem_fence(flags)"),
      fence_case("write_read_mem_fence", OpenCLStd::CL1_2, "write_mem_fence(flags)", "read_mem_fence(flags)"),
  };
  for (OpenCLStd s : {OpenCLStd::CL2_0, OpenCLStd::CL3_0}) {
    const std::string suffix = s == OpenCLStd::CL2_0 ? "_cl20" : "_cl30";
    all.push_back(work_group_barrier_case("work_group_barrier" + suffix, s, "work_group_barrier(flags)"));
    for (const char* scope : {"work_group", "device", "all_svm_devices"})
      all.push_back(work_group_barrier_case("work_group_barrier_" + std::string(scope) + suffix, s,
                                            "work_group_barrier(flags, memory_scope_" + std::string(scope) + ")"));
    all.push_back(Case{"sub_group_work_item_functions" + suffix, "get_sub_group_*()", "sub_group_barrier.cl", s, {},
                       {{"sub_group_ids", kSubGroupShapes, sub_group_ids}}});
    all.push_back(sub_group_barrier_case("sub_group_barrier" + suffix, s, "sub_group_barrier(flags)"));
    for (const char* scope : {"sub_group", "work_group"})
      all.push_back(sub_group_barrier_case("sub_group_barrier_" + std::string(scope) + suffix, s,
                                           "sub_group_barrier(flags, memory_scope_" + std::string(scope) + ")"));
    for (const char* scope : {"work_group", "device"}) {
      const std::string args = ", memory_scope_" + std::string(scope) + ")";
      all.push_back(fence_case("atomic_work_item_fence_" + std::string(scope) + suffix, s,
                               "atomic_work_item_fence(flags, memory_order_release" + args,
                               "atomic_work_item_fence(flags, memory_order_acquire" + args));
    }
  }
  return all;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.call << " (" << std_name(c.cl_std) << ")"; }

using Params = std::tuple<Case, MemoryModel>;

class Synchronization : public ::testing::TestWithParam<Params> {};

TEST_P(Synchronization, ResultsNeedTheBarrierOrFence) {
  const auto& [c, model] = GetParam();
  if (model == MemoryModel::Vulkan && !test::device().features().vulkan_memory_model)
    GTEST_SKIP() << "the device has no vulkanMemoryModel";
  const std::string what = c.call + " (" + std_name(c.cl_std) + (model == MemoryModel::Vulkan ? ", Vulkan" : ", GLSL450") +
                           " memory model)";
  Program* program = nullptr;
  try {
    program = &program_for(c.file, c.cl_std, c.defines, model);
  } catch (const CompileError& e) {
    FAIL() << what << " does not compile:\n" << e.what();
  }
  for (const KernelCheck& check : c.checks)
    for (Shape shape : check.shapes) run_and_check(device_for(model), *program, check, shape, what);
}

INSTANTIATE_TEST_SUITE_P(Builtins, Synchronization,
                         ::testing::Combine(::testing::ValuesIn(cases()),
                                            ::testing::Values(MemoryModel::Vulkan, MemoryModel::GLSL450)),
                         [](const ::testing::TestParamInfo<Params>& info) {
                           return std::get<0>(info.param).name +
                                  (std::get<1>(info.param) == MemoryModel::Vulkan ? "_vulkan" : "_glsl450");
                         });

}  // namespace
}  // namespace vkcl
