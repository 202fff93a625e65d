// The OpenCL C atomic functions on the device: each kernel below gives the
// right answer only if its atomics are atomic (counters hit by a million
// work-items, a histogram in local memory, compare-exchange loops, min, max,
// and, or, xor, exchange chains) or, for message passing, only if release
// and acquire order the plain accesses around them. Each is built from
// source in process under the Vulkan memory model (build_program's choice on
// a device that has it) and under GLSL450, and every result is checked
// against a reference computed here.
//
// Message passing needs the producer's and the consumer's work-groups to run
// at the same time, which neither OpenCL nor Vulkan promises: the consumer
// spins at most 60000 times (lavapipe ends loops at 65535 iterations) and
// reports "not seen" instead of hanging; only what it saw is checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <numeric>
#include <random>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

constexpr const char* kSource = R"CL(
// Counters: every work-item adds once.
__kernel void count_inc(__global int* counter) { atomic_inc(counter); }
__kernel void count_fetch_add(__global atomic_int* counter) {
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
}
__kernel void count_seq_cst(__global atomic_uint* counter) { atomic_fetch_add(counter, 2u); }

// The value each atomic_inc returned: a permutation of 0 .. n-1.
__kernel void tickets(__global uint* counter, __global uint* tickets) {
  tickets[get_global_id(0)] = atomic_inc(counter);
}

// Histograms of values % 64 per work-group in local memory (OpenCL 1.x
// atomic_add on a __local argument; C11 atomics on a kernel-scope __local
// array), written per group and added into a global histogram.
#define BINS 64
__kernel void histogram(__global const uint* values, uint n, __global uint* group_bins, __global uint* total_bins,
                        __local uint* bins) {
  for (uint b = get_local_id(0); b < BINS; b += get_local_size(0)) bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_add(&bins[values[i] % BINS], 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = get_local_id(0); b < BINS; b += get_local_size(0)) {
    group_bins[get_group_id(0) * BINS + b] = bins[b];
    atomic_add(&total_bins[b], bins[b]);
  }
}
__kernel void histogram_c11(__global const uint* values, uint n, __global uint* group_bins,
                            __global atomic_uint* total_bins) {
  __local atomic_uint bins[BINS];
  for (uint b = get_local_id(0); b < BINS; b += get_local_size(0)) atomic_init(&bins[b], 0u);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_fetch_add_explicit(&bins[values[i] % BINS], 1u, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = get_local_id(0); b < BINS; b += get_local_size(0)) {
    const uint count = atomic_load_explicit(&bins[b], memory_order_relaxed, memory_scope_work_group);
    group_bins[get_group_id(0) * BINS + b] = count;
    atomic_fetch_add_explicit(&total_bins[b], count, memory_order_relaxed, memory_scope_device);
  }
}

// Maximum by compare-exchange loops: C11 on int, OpenCL 1.x atomic_cmpxchg on
// a float's bits.
__kernel void cas_max(__global const int* values, __global atomic_int* result) {
  const int v = values[get_global_id(0)];
  int seen = atomic_load_explicit(result, memory_order_relaxed);
  while (seen < v &&
         !atomic_compare_exchange_weak_explicit(result, &seen, v, memory_order_relaxed, memory_order_relaxed)) {
  }
}
__kernel void cmpxchg_max_float(__global const float* values, __global float* result) {
  const float v = values[get_global_id(0)];
  volatile __global int* bits = (volatile __global int*)result;
  int expected = atomic_cmpxchg(bits, 0, 0);
  while (as_float(expected) < v) {
    const int previous = atomic_cmpxchg(bits, expected, as_int(v));
    if (previous == expected) break;
    expected = previous;
  }
}

// min, max, add, sub, dec, and, or, xor, exchange: OpenCL 1.x (ir, ur) and C11 (cr, cu).
__kernel void reduce_ops(__global const int* v, __global const uint* m, __global int* ir, __global uint* ur,
                         __global atomic_int* cr, __global atomic_uint* cu, __global uint* exchanged,
                         __global float* fexchanged, __global float* fslot) {
  const size_t i = get_global_id(0);
  atomic_min(&ir[0], v[i]);
  atomic_max(&ir[1], v[i]);
  atomic_add(&ir[2], v[i]);
  atomic_sub(&ir[3], v[i]);
  atomic_dec(&ir[4]);
  atom_add(&ir[5], 3);
  atomic_min(&ur[0], m[i]);
  atomic_max(&ur[1], m[i]);
  atomic_and(&ur[2], m[i] | 0xA5A50000u);
  atomic_or(&ur[3], m[i] & 0x0F0F00F3u);
  atomic_xor(&ur[4], m[i]);
  exchanged[i] = atomic_xchg(&ur[5], m[i]);
  fexchanged[i] = atomic_xchg(fslot, (float)i);
  atomic_fetch_min(&cr[0], v[i]);
  atomic_fetch_max_explicit(&cr[1], v[i], memory_order_acq_rel);
  atomic_fetch_sub_explicit(&cr[2], v[i], memory_order_release, memory_scope_device);
  atomic_fetch_and(&cu[0], m[i] | 0xA5A50000u);
  atomic_fetch_or_explicit(&cu[1], m[i] & 0x0F0F00F3u, memory_order_acquire, memory_scope_device);
  atomic_fetch_xor_explicit(&cu[2], m[i], memory_order_seq_cst, memory_scope_device);
  atomic_fetch_min_explicit(&cu[3], m[i], memory_order_relaxed, memory_scope_work_group);
}

// Message passing between work-groups 2k (producer) and 2k+1 (consumer) of
// pair k: plain data, then a release store at device scope; the consumer
// acquires at device scope and reads the data.
#define WORDS 4
__kernel void message_passing(__global int* data, __global atomic_int* flags, __global int* out, int max_spins) {
  const int group = (int)get_group_id(0), pair = group / 2;
  if (get_local_id(0) != 0) return;
  if (group % 2 == 0) {
    for (int w = 0; w < WORDS; ++w) data[pair * WORDS + w] = pair * 100 + w + 1;
    atomic_store_explicit(&flags[pair], 1, memory_order_release, memory_scope_device);
  } else {
    int seen = 0;
    for (int spin = 0; spin < max_spins && !seen; ++spin)
      seen = atomic_load_explicit(&flags[pair], memory_order_acquire, memory_scope_device) != 0;
    out[pair * (WORDS + 1)] = seen;
    for (int w = 0; w < WORDS; ++w) out[pair * (WORDS + 1) + 1 + w] = seen ? data[pair * WORDS + w] : -1;
  }
}
)CL";

// 64-bit atomics, built only where the device has them.
constexpr const char* kInt64Source = R"CL(
__kernel void count64(__global long* counter, __global ulong* maximum, __global const ulong* values) {
  atom_add(counter, 0x100000001L);
  atomic_fetch_max((__global atomic_ulong*)maximum, values[get_global_id(0)]);
}
__kernel void count64_local(__global long* out) {
  __local long counter;
  if (get_local_id(0) == 0) counter = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_inc(&counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = counter;
}
)CL";

const char* model_name(MemoryModel model) { return model == MemoryModel::Vulkan ? "vulkan" : "glsl450"; }

// Built once per source and memory model. Vulkan: build_program, as a user
// would; GLSL450: compiled for a device without vulkanMemoryModel (through
// VKCL_MODULE_CACHE like build_program) and run on this one.
// Float atomics on __local memory (VK_EXT_shader_atomic_float): every
// work-item exchanges its id into one slot; the ids read back, with the
// slot's last value, are each id once. Then a relaxed store of the largest
// and a load back, and legacy atomic_xchg.
constexpr const char* kLocalFloatSource = R"CL(
__kernel void exchange_ids(__global float* seen, __global float* last) {
  __local atomic_float slot;
  __local float legacy;
  if (get_local_id(0) == 0) {
    atomic_init(&slot, -1.0f);
    legacy = -2.0f;
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  const float id = (float)get_local_id(0);
  seen[get_global_id(0)] =
      atomic_exchange_explicit(&slot, id, memory_order_relaxed, memory_scope_work_group);
  atomic_xchg(&legacy, id);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const float final_value = atomic_load_explicit(&slot, memory_order_relaxed, memory_scope_work_group);
    atomic_store_explicit(&slot, final_value + 0.5f, memory_order_relaxed, memory_scope_work_group);
    last[2 * get_group_id(0)] = atomic_load_explicit(&slot, memory_order_relaxed, memory_scope_work_group);
    last[2 * get_group_id(0) + 1] = legacy;
  }
}
)CL";

Program& program_for(const char* source, MemoryModel model) {
  // The device first: statics are destroyed in reverse order, and these
  // programs must go before it and before the driver's exit handlers.
  test::device();
  static std::map<std::pair<const char*, MemoryModel>, Program> programs;
  if (auto it = programs.find({source, model}); it != programs.end()) return it->second;
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  auto build = [&]() -> Program {
    if (model == MemoryModel::Vulkan) return build_program(test::device(), source, "atomics.cl", options);
    ModuleFeatures without_memory_model = test::device().features();
    without_memory_model.vulkan_memory_model = without_memory_model.vulkan_memory_model_device_scope = false;
    VulkanModule module = compile_module_for(without_memory_model, source, "atomics.cl", options);
    return Program(test::device(), module.words, std::move(module.reflection));
  };
  return programs.emplace(std::pair{source, model}, build()).first->second;
}

template <typename T>
Buffer buffer_of(const std::vector<T>& values) {
  Buffer buffer(test::device(), values.size() * sizeof(T));
  buffer.write(values);
  return buffer;
}

std::vector<uint32_t> random_uints(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> values(n);
  for (uint32_t& v : values) v = rng();
  return values;
}

class AtomicsOnDevice : public ::testing::TestWithParam<MemoryModel> {
 protected:
  Kernel kernel(const char* name) { return program_for(kSource, GetParam()).kernel(name); }
  void run(const Kernel& k, uint64_t global, uint64_t local) {
    test::device().run(k, NDRange::make({global}, {local}));
  }
};

constexpr uint32_t kMillion = 1u << 20;

TEST_P(AtomicsOnDevice, AMillionWorkItemsCountExactly) {
  for (const char* name : {"count_inc", "count_fetch_add"}) {
    Buffer counter = buffer_of(std::vector<int32_t>{0});
    Kernel k = kernel(name);
    k.set_arg("counter", counter);
    run(k, kMillion, 256);
    EXPECT_EQ(counter.read<int32_t>(1)[0], int32_t(kMillion)) << name;
  }
  Buffer counter = buffer_of(std::vector<uint32_t>{5});
  Kernel k = kernel("count_seq_cst");
  k.set_arg("counter", counter);
  run(k, kMillion, 128);
  EXPECT_EQ(counter.read<uint32_t>(1)[0], 5 + 2 * kMillion);
}

TEST_P(AtomicsOnDevice, AtomicIncReturnsEveryTicketOnce) {
  constexpr uint32_t n = 1u << 16;
  Buffer counter = buffer_of(std::vector<uint32_t>{0});
  Buffer tickets(test::device(), n * sizeof(uint32_t));
  Kernel k = kernel("tickets");
  k.set_arg("counter", counter);
  k.set_arg("tickets", tickets);
  run(k, n, 64);
  std::vector<uint32_t> got = tickets.read<uint32_t>(n);
  std::sort(got.begin(), got.end());
  std::vector<uint32_t> want(n);
  std::iota(want.begin(), want.end(), 0u);
  EXPECT_EQ(got, want);
  EXPECT_EQ(counter.read<uint32_t>(1)[0], n);
}

TEST_P(AtomicsOnDevice, LocalHistogramsAreExact) {
  constexpr uint32_t n = 100'003, bins = 64, local = 128, groups = 37;
  std::vector<uint32_t> values = random_uints(n, 42);
  for (uint32_t i = 0; i < n; i += 7) values[i] = 5;  // one crowded bin
  // What each work-group counts: work-item g takes values g, g + G, g + 2G, ...
  std::vector<uint32_t> group_want(groups * bins, 0), total_want(bins, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t group = (i % (groups * local)) / local;
    ++group_want[group * bins + values[i] % bins];
    ++total_want[values[i] % bins];
  }
  for (const char* name : {"histogram", "histogram_c11"}) {
    Buffer in = buffer_of(values);
    Buffer group_bins(test::device(), groups * bins * sizeof(uint32_t));
    Buffer total_bins = buffer_of(std::vector<uint32_t>(bins, 0));
    Kernel k = kernel(name);
    k.set_arg("values", in);
    k.set_arg("n", n);
    k.set_arg("group_bins", group_bins);
    k.set_arg("total_bins", total_bins);
    if (std::string(name) == "histogram") k.set_local_arg("bins", bins * sizeof(uint32_t));
    run(k, groups * local, local);
    EXPECT_EQ(group_bins.read<uint32_t>(groups * bins), group_want) << name;
    EXPECT_EQ(total_bins.read<uint32_t>(bins), total_want) << name;
  }
}

TEST_P(AtomicsOnDevice, CompareExchangeLoopsFindTheMaximum) {
  constexpr uint32_t n = 1u << 16;
  std::vector<int32_t> ints(n);
  std::vector<float> floats(n);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> int_dist(-1'000'000'000, 1'000'000'000);
  std::uniform_real_distribution<float> float_dist(0.0f, 1000.0f);
  for (uint32_t i = 0; i < n; ++i) {
    ints[i] = int_dist(rng);
    floats[i] = float_dist(rng);
  }
  {
    Buffer in = buffer_of(ints), result = buffer_of(std::vector<int32_t>{INT_MIN});
    Kernel k = kernel("cas_max");
    k.set_arg("values", in);
    k.set_arg("result", result);
    run(k, n, 64);
    EXPECT_EQ(result.read<int32_t>(1)[0], *std::max_element(ints.begin(), ints.end()));
  }
  {
    Buffer in = buffer_of(floats), result = buffer_of(std::vector<float>{0.0f});
    Kernel k = kernel("cmpxchg_max_float");
    k.set_arg("values", in);
    k.set_arg("result", result);
    run(k, n, 64);
    EXPECT_EQ(result.read<float>(1)[0], *std::max_element(floats.begin(), floats.end()));
  }
}

TEST_P(AtomicsOnDevice, MinMaxAndOrXorAddSubExchange) {
  constexpr uint32_t n = 50'000;
  std::vector<uint32_t> m = random_uints(n, 3);
  std::vector<int32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = int32_t(m[i] >> 3) - (1 << 27);

  Buffer vb = buffer_of(v), mb = buffer_of(m);
  Buffer ir = buffer_of(std::vector<int32_t>{INT_MAX, INT_MIN, 11, 13, 17, 19});
  Buffer ur = buffer_of(std::vector<uint32_t>{UINT_MAX, 0, UINT_MAX, 0, 0x12345678u, 0xDEADBEEFu});
  Buffer cr = buffer_of(std::vector<int32_t>{INT_MAX, INT_MIN, 23});
  Buffer cu = buffer_of(std::vector<uint32_t>{UINT_MAX, 0, 0x0BADF00Du, UINT_MAX});
  Buffer exchanged(test::device(), n * sizeof(uint32_t)), fexchanged(test::device(), n * sizeof(float));
  Buffer fslot = buffer_of(std::vector<float>{-1.0f});
  Kernel k = kernel("reduce_ops");
  k.set_arg("v", vb);
  k.set_arg("m", mb);
  k.set_arg("ir", ir);
  k.set_arg("ur", ur);
  k.set_arg("cr", cr);
  k.set_arg("cu", cu);
  k.set_arg("exchanged", exchanged);
  k.set_arg("fexchanged", fexchanged);
  k.set_arg("fslot", fslot);
  run(k, n, 100);

  int32_t vmin = INT_MAX, vmax = INT_MIN;
  uint32_t sum = 0, mmin = UINT_MAX, mmax = 0, mand = UINT_MAX, mor = 0, mxor = 0x12345678u, cxor = 0x0BADF00Du;
  for (uint32_t i = 0; i < n; ++i) {
    vmin = std::min(vmin, v[i]);
    vmax = std::max(vmax, v[i]);
    sum += uint32_t(v[i]);
    mmin = std::min(mmin, m[i]);
    mmax = std::max(mmax, m[i]);
    mand &= m[i] | 0xA5A50000u;
    mor |= m[i] & 0x0F0F00F3u;
    mxor ^= m[i];
    cxor ^= m[i];
  }
  EXPECT_EQ(ir.read<int32_t>(6), (std::vector<int32_t>{vmin, vmax, int32_t(11u + sum), int32_t(13u - sum),
                                                       int32_t(17u - n), int32_t(19u + 3 * n)}));
  const std::vector<uint32_t> u = ur.read<uint32_t>(6);
  EXPECT_EQ(std::vector<uint32_t>(u.begin(), u.begin() + 5), (std::vector<uint32_t>{mmin, mmax, mand, mor, mxor}));
  EXPECT_EQ(cr.read<int32_t>(3), (std::vector<int32_t>{vmin, vmax, int32_t(23u - sum)}));
  EXPECT_EQ(cu.read<uint32_t>(4), (std::vector<uint32_t>{mand, mor, cxor, mmin}));

  // An exchange chain: the values read back and the one left are exactly the
  // initial value and every value written.
  std::vector<uint32_t> chain = exchanged.read<uint32_t>(n);
  chain.push_back(u[5]);
  std::vector<uint32_t> written = m;
  written.push_back(0xDEADBEEFu);
  std::sort(chain.begin(), chain.end());
  std::sort(written.begin(), written.end());
  EXPECT_EQ(chain, written);
  std::vector<float> fchain = fexchanged.read<float>(n);
  fchain.push_back(fslot.read<float>(1)[0]);
  std::vector<float> fwritten(n);
  std::iota(fwritten.begin(), fwritten.end(), 0.0f);
  fwritten.push_back(-1.0f);
  std::sort(fchain.begin(), fchain.end());
  std::sort(fwritten.begin(), fwritten.end());
  EXPECT_EQ(fchain, fwritten);
}

TEST_P(AtomicsOnDevice, ReleaseAcquireMessagePassingAcrossWorkGroups) {
  constexpr int kPairs = 8, kWords = 4, kMaxSpins = 60'000;
  int seen_pairs = 0;
  for (int round = 0; round < 4; ++round) {
    Buffer data = buffer_of(std::vector<int32_t>(kPairs * kWords, 0));
    Buffer flags = buffer_of(std::vector<int32_t>(kPairs, 0));
    Buffer out = buffer_of(std::vector<int32_t>(kPairs * (kWords + 1), -2));
    Kernel k = kernel("message_passing");
    k.set_arg("data", data);
    k.set_arg("flags", flags);
    k.set_arg("out", out);
    k.set_arg("max_spins", int32_t(kMaxSpins));
    run(k, 2 * kPairs * 32, 32);
    const std::vector<int32_t> got = out.read<int32_t>(kPairs * (kWords + 1));
    for (int pair = 0; pair < kPairs; ++pair) {
      const int32_t* row = &got[pair * (kWords + 1)];
      ASSERT_TRUE(row[0] == 0 || row[0] == 1) << "pair " << pair << ": the consumer did not report";
      if (row[0] == 0) continue;
      ++seen_pairs;
      for (int w = 0; w < kWords; ++w)
        EXPECT_EQ(row[1 + w], pair * 100 + w + 1) << "round " << round << ", pair " << pair << ", word " << w
                                                  << ": the acquire saw the flag but not the data before the release";
    }
  }
  std::printf("message passing (%s): flag seen by %d of %d consumers%s\n", model_name(GetParam()), seen_pairs,
              4 * kPairs, seen_pairs == 0 ? " (not seen: the work-groups did not run at the same time)" : "");
}

TEST_P(AtomicsOnDevice, Int64AtomicsWhereTheDeviceHasThem) {
  const ModuleFeatures& features = test::device().features();
  if (!features.shader_int64 || !features.shader_buffer_int64_atomics || !features.shader_shared_int64_atomics)
    GTEST_SKIP() << "the device lacks shaderInt64, shaderBufferInt64Atomics or shaderSharedInt64Atomics";
  Program& program = program_for(kInt64Source, GetParam());
  constexpr uint32_t n = 1u << 16, local = 64;
  std::vector<uint64_t> values(n);
  std::mt19937_64 rng(11);
  for (uint64_t& x : values) x = rng();
  Buffer counter = buffer_of(std::vector<int64_t>{0}), maximum = buffer_of(std::vector<uint64_t>{0});
  Buffer in = buffer_of(values);
  Kernel k = program.kernel("count64");
  k.set_arg("counter", counter);
  k.set_arg("maximum", maximum);
  k.set_arg("values", in);
  test::device().run(k, NDRange::make({n}, {local}));
  EXPECT_EQ(counter.read<int64_t>(1)[0], int64_t(n) * 0x100000001LL);
  EXPECT_EQ(maximum.read<uint64_t>(1)[0], *std::max_element(values.begin(), values.end()));

  Buffer out(test::device(), (n / local) * sizeof(int64_t));
  Kernel l = program.kernel("count64_local");
  l.set_arg("out", out);
  test::device().run(l, NDRange::make({n}, {local}));
  EXPECT_EQ(out.read<int64_t>(n / local), std::vector<int64_t>(n / local, local));
}

TEST_P(AtomicsOnDevice, LocalFloatExchangesLoadsAndStoresWhereTheDeviceHasThem) {
  if (!test::device().features().shader_shared_float32_atomics)
    GTEST_SKIP() << "the device lacks shaderSharedFloat32Atomics (VK_EXT_shader_atomic_float)";
  Program& program = program_for(kLocalFloatSource, GetParam());
  constexpr uint32_t groups = 16, local = 64;
  Buffer seen(test::device(), groups * local * sizeof(float)), last(test::device(), groups * 2 * sizeof(float));
  Kernel k = program.kernel("exchange_ids");
  k.set_arg("seen", seen);
  k.set_arg("last", last);
  test::device().run(k, NDRange::make({groups * local}, {local}));
  const std::vector<float> got = seen.read<float>(groups * local), ends = last.read<float>(groups * 2);
  for (uint32_t g = 0; g < groups; ++g) {
    // The values read, and the slot's last value, are -1 and every id once.
    std::vector<float> values(got.begin() + g * local, got.begin() + (g + 1) * local);
    values.push_back(ends[2 * g] - 0.5f);
    std::sort(values.begin(), values.end());
    for (uint32_t i = 0; i <= local; ++i) EXPECT_EQ(values[i], float(i) - 1.0f) << "group " << g;
    EXPECT_GE(ends[2 * g + 1], 0.0f) << "group " << g;  // some work-item's id: atomic_xchg stored it
    EXPECT_LT(ends[2 * g + 1], float(local)) << "group " << g;
  }
}

INSTANTIATE_TEST_SUITE_P(MemoryModels, AtomicsOnDevice, ::testing::Values(MemoryModel::Vulkan, MemoryModel::GLSL450),
                         [](const ::testing::TestParamInfo<MemoryModel>& info) { return model_name(info.param); });

}  // namespace
}  // namespace vkcl
