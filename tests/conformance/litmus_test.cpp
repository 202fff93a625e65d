// Memory-model litmus tests (docs/design.md, "Testing", 6): message passing (MP),
// store buffering (SB), load buffering (LB), coherence of reads (CoRR) and
// the barrier family, in __local memory within a work-group, in global
// memory within a work-group, and in global memory across work-groups, run
// under the stress of shaders/litmus/harness.h with every outcome counted.
//
// - forbidden: the fences or orders the OpenCL memory model says rule out
//   the weak outcome; the test fails on a single one.
// - allowed: the same shape without them (or with a scope too narrow for
//   the threads): a negative control whose weak outcomes are reported, never
//   required. On lavapipe a work-group runs as one CPU thread, its SIMD
//   chunks one after another between barriers, so nothing within a
//   work-group can ever be weak there, and across work-groups x86 shows
//   only SB's store buffering.
// - broken: a program whose "weak" outcome is an ordinary interleaving
//   (MP's reader reads the data before the flag, with a gap): it shows the
//   harness really runs the two threads of an instance concurrently and
//   counts what they see. Reported; see kBrokenMustShow.
// - mis-mapped: a forbidden variant's module with its synchronization
//   rewritten the way a wrong mapping would emit it (CrossWorkgroupMemory
//   instead of UniformMemory, which Vulkan drivers ignore; Workgroup scope
//   instead of Device): reported, to see whether the suite would notice.
//   On lavapipe, barrier(0) and barrier(CLK_GLOBAL_MEM_FENCE) rewritten to
//   CrossWorkgroupMemory lose the store-load ordering in about half the
//   instances in every run, and there the test requires it (the negative
//   control of docs/design.md, "Testing", 6).
//
// Every variant's litmus kernel is first checked to carry exactly the
// barriers and ordered atomics it is meant to test (LitmusKernels.*).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <sstream>

#include "conformance.h"
#include "litmus.h"
#include "spirv_sync.h"

namespace vkcl::conformance {
namespace {

using litmus::Placement;

// Whether the broken variants must show their "weak" outcome. Not asserted:
// on a device that runs work-groups one at a time it cannot appear at all,
// and a harness that pairs threads badly shows it only rarely. Reported.
constexpr bool kBrokenMustShow = false;

enum class Expect { Forbidden, Allowed, Broken, MisMapped };
const char* to_string(Expect e) {
  switch (e) {
    case Expect::Forbidden: return "forbidden";
    case Expect::Allowed: return "allowed";
    case Expect::Broken: return "broken";
    case Expect::MisMapped: return "mis-mapped";
  }
  return "";
}

struct Shape {
  std::string file;
  std::vector<std::string> outcomes;  // names of outcomes 0..3; "" for ones that cannot occur
  int weak;                           // the outcome the fences forbid
};

const Shape kMP{"litmus/mp.cl", {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"}, 2};
const Shape kSB{"litmus/sb.cl", {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"}, 0};
const Shape kLB{"litmus/lb.cl", {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"}, 3};
const Shape kCoRR{"litmus/corr.cl", {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"}, 2};
const Shape kStoreLoad{"litmus/barrier.cl", {"r0=0", "r0=1", "", ""}, 0};
const Shape kLoadStore{"litmus/barrier.cl", {"r0=0", "r0=1", "", ""}, 1};
const Shape kStoreStore{"litmus/barrier.cl", {"", "x=1", "x=2", ""}, 1};

// How a mis-mapped variant rewrites its synchronization.
enum class MisMap { None, CrossWorkgroupMemory, WorkgroupScope };

struct Variant {
  std::string name;
  const Shape* shape;
  Placement placement;
  std::vector<std::string> defines;
  Expect expect;
  // The synchronization of the litmus kernel beyond the harness's own, as
  // describe() writes it.
  std::vector<std::string> sync;
  MisMap mis_map = MisMap::None;
  // A negative control that lavapipe shows in every run: there the test
  // requires weak outcomes, proof that the suite can see a barrier that
  // orders nothing (Mesa drops a barrier's memory semantics when they are
  // none, or only CrossWorkgroupMemory, and moves the load above it).
  bool weak_on_llvmpipe = false;
};

// --- Expected instructions -----------------------------------------------------

std::string storage(Placement p) { return p == Placement::Local ? "WorkgroupMemory" : "UniformMemory"; }
std::string scope(Placement p) { return p == Placement::Global ? "Device" : "Workgroup"; }
std::string fence(Placement p, const char* order, const std::string& at = "") {
  return "OpMemoryBarrier " + (at.empty() ? scope(p) : at) + " " + storage(p) + "|" + order;
}
std::string atomic(Placement p, const char* op, const char* order) {
  return std::string("OpAtomic") + op + " " + scope(p) + " " + storage(p) + "|" + order;
}
std::string work_group_barrier(Placement p) {
  return "OpControlBarrier Workgroup Workgroup " + storage(p) + "|AcquireRelease";
}
std::vector<std::string> harness_sync(Placement p) {
  if (p == Placement::Local) return {work_group_barrier(p), work_group_barrier(p)};
  if (p == Placement::GlobalWorkGroup) return {work_group_barrier(p)};
  return {};
}

// --- The variants ----------------------------------------------------------------

std::string awif(const char* order, const char* scope = "SCOPE") {
  return std::string("atomic_work_item_fence(FLAGS, memory_order_") + order + ", " + scope + ")";
}

std::vector<Variant> variants() {
  std::vector<Variant> all;
  auto add = [&](std::string name, const Shape& shape, Placement p, std::vector<std::string> defines, Expect expect,
                 std::vector<std::string> sync) {
    all.push_back({std::move(name), &shape, p, std::move(defines), expect, std::move(sync)});
  };
  const Placement G = Placement::Global, W = Placement::GlobalWorkGroup, L = Placement::Local;
  const char* where[] = {"global", "global_wg", "local"};
  auto named = [&](const char* shape, Placement p, const char* what) {
    return std::string(shape) + "_" + where[int(p)] + "_" + what;
  };

  // MP
  for (Placement p : {G, W, L}) add(named("mp", p, "relaxed"), kMP, p, {}, Expect::Allowed, {});
  for (Placement p : {G, W, L})
    add(named("mp", p, "fence_release_acquire"), kMP, p, {"FENCE_0=" + awif("release"), "FENCE_1=" + awif("acquire")},
        Expect::Forbidden, {fence(p, "Release"), fence(p, "Acquire")});
  for (Placement p : {G, L}) {
    add(named("mp", p, "fence_acq_rel"), kMP, p, {"FENCE_0=" + awif("acq_rel"), "FENCE_1=" + awif("acq_rel")},
        Expect::Forbidden, {fence(p, "AcquireRelease"), fence(p, "AcquireRelease")});
    add(named("mp", p, "fence_seq_cst"), kMP, p, {"FENCE_0=" + awif("seq_cst"), "FENCE_1=" + awif("seq_cst")},
        Expect::Forbidden, {fence(p, "AcquireRelease"), fence(p, "AcquireRelease")});
    add(named("mp", p, "release_acquire_atomics"), kMP, p,
        {"STORE_FLAG(p,v)=atomic_store_explicit(p, v, memory_order_release, SCOPE)",
         "LOAD_FLAG(p)=atomic_load_explicit(p, memory_order_acquire, SCOPE)"},
        Expect::Forbidden, {atomic(p, "Store", "Release"), atomic(p, "Load", "Acquire")});
  }
  add(named("mp", G, "fence_all_svm_devices"), kMP, G,
      {"FENCE_0=" + awif("release", "memory_scope_all_svm_devices"),
       "FENCE_1=" + awif("acquire", "memory_scope_all_svm_devices")},
      Expect::Forbidden, {fence(G, "Release"), fence(G, "Acquire")});
  for (Placement p : {W, L}) {
    add(named("mp", p, "mem_fence"), kMP, p, {"FENCE_0=mem_fence(FLAGS)", "FENCE_1=mem_fence(FLAGS)"},
        Expect::Forbidden, {fence(p, "AcquireRelease"), fence(p, "AcquireRelease")});
    add(named("mp", p, "write_read_mem_fence"), kMP, p, {"FENCE_0=write_mem_fence(FLAGS)", "FENCE_1=read_mem_fence(FLAGS)"},
        Expect::Forbidden, {fence(p, "Release"), fence(p, "Acquire")});
  }
  // Fences whose scope is the work-group, between threads of different work-groups: allowed.
  add(named("mp", G, "fence_work_group_scope"), kMP, G,
      {"FENCE_0=" + awif("release", "memory_scope_work_group"), "FENCE_1=" + awif("acquire", "memory_scope_work_group")},
      Expect::Allowed, {fence(G, "Release", "Workgroup"), fence(G, "Acquire", "Workgroup")});
  add(named("mp", G, "mem_fence"), kMP, G, {"FENCE_0=mem_fence(FLAGS)", "FENCE_1=mem_fence(FLAGS)"}, Expect::Allowed,
      {fence(G, "AcquireRelease", "Workgroup"), fence(G, "AcquireRelease", "Workgroup")});
  for (Placement p : {G, L}) add(named("mp", p, "read_data_first"), kMP, p, {"READ_DATA_FIRST"}, Expect::Broken, {});

  // SB
  for (Placement p : {G, L}) {
    add(named("sb", p, "relaxed"), kSB, p, {}, Expect::Allowed, {});
    add(named("sb", p, "fence_seq_cst"), kSB, p, {"FENCE=" + awif("seq_cst")}, Expect::Forbidden,
        {fence(p, "AcquireRelease"), fence(p, "AcquireRelease")});
    add(named("sb", p, "rmw_acq_rel"), kSB, p,
        {"STORE(p,v)=atomic_exchange_explicit(p, v, memory_order_acq_rel, SCOPE)",
         "LOAD(p)=atomic_fetch_add_explicit(p, 0u, memory_order_acq_rel, SCOPE)"},
        Expect::Forbidden,
        {atomic(p, "Exchange", "AcquireRelease"), atomic(p, "IAdd", "AcquireRelease"),
         atomic(p, "Exchange", "AcquireRelease"), atomic(p, "IAdd", "AcquireRelease")});
  }
  // Acquire-release fences do not order a store before a later load: allowed.
  add(named("sb", G, "fence_acq_rel"), kSB, G, {"FENCE=" + awif("acq_rel")}, Expect::Allowed,
      {fence(G, "AcquireRelease"), fence(G, "AcquireRelease")});

  // LB
  for (Placement p : {G, L}) {
    add(named("lb", p, "relaxed"), kLB, p, {}, Expect::Allowed, {});
    add(named("lb", p, "fence_acq_rel"), kLB, p, {"FENCE=" + awif("acq_rel")}, Expect::Forbidden,
        {fence(p, "AcquireRelease"), fence(p, "AcquireRelease")});
    add(named("lb", p, "acquire_release_atomics"), kLB, p,
        {"LOAD(p)=atomic_load_explicit(p, memory_order_acquire, SCOPE)",
         "STORE(p,v)=atomic_store_explicit(p, v, memory_order_release, SCOPE)"},
        Expect::Forbidden,
        {atomic(p, "Load", "Acquire"), atomic(p, "Store", "Release"), atomic(p, "Load", "Acquire"),
         atomic(p, "Store", "Release")});
  }
  add(named("lb", L, "mem_fence"), kLB, L, {"FENCE=mem_fence(FLAGS)"}, Expect::Forbidden,
      {fence(L, "AcquireRelease"), fence(L, "AcquireRelease")});

  // CoRR: coherence holds for relaxed atomics; plain volatile accesses race.
  for (Placement p : {G, L}) {
    add(named("corr", p, "relaxed"), kCoRR, p, {}, Expect::Forbidden, {});
    add(named("corr", p, "volatile"), kCoRR, p, {"LITMUS_VOLATILE"}, Expect::Allowed, {});
  }
  add(named("corr", G, "fence_acquire"), kCoRR, G, {"FENCE=" + awif("acquire")}, Expect::Forbidden,
      {fence(G, "Acquire")});

  // Barriers within a work-group, plain accesses.
  struct BarrierShape {
    const char* name;
    const Shape* shape;
  };
  for (BarrierShape b : {BarrierShape{"store_load", &kStoreLoad}, BarrierShape{"load_store", &kLoadStore},
                         BarrierShape{"store_store", &kStoreStore}}) {
    std::string define = b.name;
    std::transform(define.begin(), define.end(), define.begin(), ::toupper);
    for (Placement p : {W, L})
      add(named("barrier", p, b.name), *b.shape, p, {define}, Expect::Forbidden, {work_group_barrier(p)});
  }
  add(named("barrier", L, "store_load_no_fence"), kStoreLoad, L, {"STORE_LOAD", "BARRIER=barrier(0)"}, Expect::Allowed,
      {"OpControlBarrier Workgroup Workgroup None"});
  all.back().weak_on_llvmpipe = true;

  // Mis-mapped copies of forbidden variants across work-groups, one per shape and form.
  // (Within a work-group only the storage class can be wrong: the barrier's scope is Workgroup already.)
  const std::vector<std::string> to_mis_map{"mp_global_fence_release_acquire", "mp_global_release_acquire_atomics",
                                            "sb_global_fence_seq_cst", "lb_global_fence_acq_rel",
                                            "barrier_global_wg_store_load"};
  std::vector<Variant> mis_mapped;
  for (const Variant& v : all) {
    if (std::find(to_mis_map.begin(), to_mis_map.end(), v.name) == to_mis_map.end()) continue;
    for (MisMap m : {MisMap::CrossWorkgroupMemory, MisMap::WorkgroupScope}) {
      if (m == MisMap::WorkgroupScope && v.placement != G) continue;
      Variant copy = v;
      copy.expect = Expect::MisMapped;
      copy.mis_map = m;
      copy.name += m == MisMap::CrossWorkgroupMemory ? "_as_cross_workgroup_memory" : "_as_workgroup_scope";
      copy.weak_on_llvmpipe = copy.name == "barrier_global_wg_store_load_as_cross_workgroup_memory";
      for (std::string& s : copy.sync) {
        if (m == MisMap::CrossWorkgroupMemory) s.replace(s.find("UniformMemory"), 13, "CrossWorkgroupMemory");
        else s.replace(s.find(" Device "), 8, " Workgroup ");
      }
      mis_mapped.push_back(copy);
    }
  }
  all.insert(all.end(), mis_mapped.begin(), mis_mapped.end());
  return all;
}

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

// --- Building --------------------------------------------------------------------

std::vector<std::string> defines_of(const Variant& v) {
  std::vector<std::string> d{litmus::placement_define(v.placement)};
  d.insert(d.end(), v.defines.begin(), v.defines.end());
  return d;
}

// The module's words as loaded: mis-mapped variants rewritten.
std::vector<uint32_t> words_of(const Variant& v) {
  const VulkanModule& m = module(v.shape->file, OpenCLStd::CL2_0, defines_of(v));
  if (v.mis_map == MisMap::None) return m.words;
  return remap_synchronization(m.words, "litmus", [&](const SyncInstruction& s) -> std::optional<ScopeAndSemantics> {
    if (v.mis_map == MisMap::CrossWorkgroupMemory && (s.semantics & spv::UniformMemory))
      return ScopeAndSemantics{s.memory_scope, (s.semantics & ~spv::UniformMemory) | spv::CrossWorkgroupMemory};
    if (v.mis_map == MisMap::WorkgroupScope && (s.memory_scope == spv::ScopeDevice || s.memory_scope == spv::ScopeQueueFamily))
      return ScopeAndSemantics{spv::ScopeWorkgroup, s.semantics};
    return std::nullopt;
  });
}

Program& program_of(const Variant& v) {
  if (v.mis_map == MisMap::None) return program(v.shape->file, OpenCLStd::CL2_0, defines_of(v));
  static auto& programs = *new std::map<std::string, std::unique_ptr<Program>>;
  auto& slot = programs[v.name];
  if (!slot) {
    const VulkanModule& m = module(v.shape->file, OpenCLStd::CL2_0, defines_of(v));
    slot = std::make_unique<Program>(device(), words_of(v), m.reflection);
  }
  return *slot;
}

std::string code_of(const Variant& v) {
  std::string s = v.shape->file + " with";
  for (const std::string& d : defines_of(v)) s += " -D" + d;
  return s;
}

uint64_t seed_of(const Variant& v) {
  uint64_t h = litmus_options().seed * 0x9E3779B97F4A7C15ull;
  for (char c : v.name) h = (h ^ uint8_t(c)) * 0x100000001b3ull;
  return h;
}

// This test's time: --litmus-seconds, and no more than its share of what
// is left of --litmus-total-seconds among the litmus tests still to run.
double time_limit() {
  static const size_t tests = variants().size();
  static size_t started = 0;
  static const auto first = std::chrono::steady_clock::now();
  const LitmusOptions& o = litmus_options();
  const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - first).count();
  const size_t left = tests > started ? tests - started : 1;
  ++started;
  return std::min(double(o.seconds), std::max(0.0, (double(o.total_seconds) - used) / double(left)));
}

class LitmusKernels : public ::testing::TestWithParam<Variant> {};
class Litmus : public ::testing::TestWithParam<Variant> {};

// The litmus kernel carries the synchronization the variant tests, and no other.
TEST_P(LitmusKernels, CarryTheirSynchronization) {
  const Variant& v = GetParam();
  std::vector<std::string> want = harness_sync(v.placement), got;
  if (v.mis_map == MisMap::CrossWorkgroupMemory)  // the rewrite reaches the harness's barriers too
    for (std::string& s : want)
      if (auto at = s.find("UniformMemory"); at != std::string::npos) s.replace(at, 13, "CrossWorkgroupMemory");
  want.insert(want.end(), v.sync.begin(), v.sync.end());
  for (const SyncInstruction& s : synchronization_of(words_of(v), "litmus")) got.push_back(describe(s));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  auto list = [](const std::vector<std::string>& l) {
    std::string s;
    for (const std::string& i : l) s += "\n    " + i;
    return l.empty() ? std::string("\n    (none)") : s;
  };
  EXPECT_EQ(got, want) << v.name << " (" << code_of(v) << ")\n  expected:" << list(want) << "\n  got:" << list(got);
  record_iterations(1, std::to_string(got.size()) + " synchronization instructions");
}

TEST_P(Litmus, Outcomes) {
  const Variant& v = GetParam();
  const LitmusOptions& o = litmus_options();
  LitmusRow row;
  row.test = v.name;
  row.expect = to_string(v.expect);
  row.outcome_names = v.shape->outcomes;
  row.weak_index = v.shape->weak;
  Program* prog = nullptr;
  litmus::Counts c;
  try {
    prog = &program_of(v);
    c = litmus::run(*prog, v.placement, o, seed_of(v), time_limit());
  } catch (const CompileError& e) {
    FAIL() << code_of(v) << " does not compile:\n" << e.what();
  } catch (const Error& e) {
    // A mis-mapped module the Vulkan validation layer refuses: the suite
    // noticed (with VKCL_VALIDATION=1, as ctest runs it).
    const std::string what = e.what();
    if (v.expect != Expect::MisMapped || what.find("Validation") == std::string::npos) throw;
    const size_t vuid = what.find("[VUID-");
    row.verdict = "noticed: the validation layer rejects it" +
                  (vuid == std::string::npos ? std::string() : " " + what.substr(vuid, what.find(']', vuid) - vuid + 1));
    row.outcomes.assign(litmus::kOutcomes + 1, 0);
    record_litmus(row);
    return;
  }

  const uint64_t weak = c.outcomes[v.shape->weak], invalid = c.outcomes[litmus::kOutcomes];
  row.instances = c.instances;
  row.outcomes.assign(c.outcomes.begin(), c.outcomes.end());
  row.dispatches = c.dispatches;
  row.gpu_seconds = c.gpu_seconds;
  row.seconds = c.seconds;
  const bool forbidden = v.expect == Expect::Forbidden;
  row.verdict = invalid ? "FAIL: invalid results"
                : forbidden ? (weak ? "FAIL: weak outcome seen" : "pass")
                : weak      ? (v.expect == Expect::MisMapped ? "noticed: weak seen" : "weak seen")
                            : (v.expect == Expect::MisMapped ? "not noticed: none seen" : "none seen");
  if (c.cut_short) row.verdict += " (cut short by --litmus-seconds / --litmus-total-seconds)";
  record_litmus(row);

  EXPECT_EQ(c.counted(), c.instances) << v.name << ": the classify kernel counted a different number of instances";
  EXPECT_EQ(invalid, 0u) << v.name << ": results no execution can give (harness or device fault)";
  if (forbidden) {
    EXPECT_EQ(weak, 0u) << v.name << ": the weak outcome " << v.shape->outcomes[v.shape->weak] << " appeared " << weak
                        << " times in " << c.instances << " instances, which the OpenCL memory model forbids ("
                        << code_of(v) << ")";
  }
  if (v.weak_on_llvmpipe && device().info().driver_name.find("llvmpipe") != std::string::npos) {
    EXPECT_GT(weak, 0u) << v.name << ": the negative control shows no weak outcome on llvmpipe, where every run "
                        << "so far showed it in about half the instances: can the harness still see a missing barrier?";
  }
  if (v.expect == Expect::Broken && kBrokenMustShow) {
    EXPECT_GT(weak, 0u) << v.name << ": the broken variant never showed its interleaving";
  }
}

// The test of the counting: the classify kernel of mp.cl, given results of
// every outcome (and impossible ones), counts each exactly and zeroes what
// it read, so a weak outcome that happens is a weak outcome reported.
TEST(LitmusHarness, ClassifyCountsEveryOutcome) {
  Program& prog = program(kMP.file, OpenCLStd::CL2_0, {litmus::placement_define(Placement::Local)});
  Kernel classify = prog.kernel("classify");
  const uint32_t size = 64, groups = 3, testing = 2, slice = 256;
  std::vector<uint32_t> params(slice, 0u), results(size_t(groups) * size * 4, 0u);
  params[litmus::kTestingGroups] = testing;
  params[litmus::kGroups] = groups;
  params[litmus::kLocalSize] = size;
  params[litmus::kStride] = 1;
  std::array<uint64_t, litmus::kOutcomes + 1> want{};
  for (uint32_t i = 0; i < groups * size; ++i) {
    const uint32_t r0 = i % 2, r1 = (i / 2) % 2;
    const bool impossible = i % 13 == 5;
    uint32_t* result = &results[size_t(i) * 4];
    result[0] = impossible ? 7 : r0;
    result[1] = r1;
    result[2] = result[3] = 1;  // final x and y
    if (i < testing * size) ++want[impossible ? litmus::kOutcomes : r0 * 2 + r1];
  }
  Buffer p(device(), slice * 4), r(device(), results.size() * 4), sync(device(), 16), counts(device(), 32);
  p.write(params);
  r.write(results);
  sync.fill(std::byte{0});
  counts.fill(std::byte{0});
  classify.set_arg("results", r);
  classify.set_arg("params", p);
  classify.set_arg("sync", sync);
  classify.set_arg("counts", counts);
  device().run(classify, NDRange::make({groups * size}, {size}));
  const std::vector<uint32_t> got = counts.read<uint32_t>(litmus::kOutcomes + 1);
  for (uint32_t o = 0; o <= litmus::kOutcomes; ++o) EXPECT_EQ(got[o], want[o]) << "outcome " << o;
  const std::vector<uint32_t> after = r.read<uint32_t>(results.size());
  for (uint32_t i = 0; i < groups * size * 4; ++i)
    ASSERT_EQ(after[i], i < testing * size * 4 ? 0u : results[i]) << "result word " << i << " after classify";
  record_iterations(1, "every outcome of 128 instances, 10 impossible");
}

std::string name_of(const ::testing::TestParamInfo<Variant>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Variants, LitmusKernels, ::testing::ValuesIn(variants()), name_of);
INSTANTIATE_TEST_SUITE_P(Variants, Litmus, ::testing::ValuesIn(variants()), name_of);

}  // namespace
}  // namespace vkcl::conformance
