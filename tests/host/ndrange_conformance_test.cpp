// The ND-range conformance suite, modelled on what the OpenCL conformance
// suite checks: shaders/conformance/ndrange/workitem_functions.cl, built from
// source with vkcl::build_program, runs over 1-, 2- and 3-D ranges with and
// without offsets, with local sizes that divide the global size, that do not
// (non-uniform edge work-groups) and that the runtime picks, and with the
// kernel's reqd_work_group_size (from which the compiler takes the enqueued
// local size as a constant); every work-item
// records the value of every work-item function in every dimension, and the
// host checks each one against OpenCL's definitions. In the same kernel a
// __local neighbour exchange across barrier(CLK_LOCAL_MEM_FENCE) must read
// the right work-item's token in every work-group, edge groups included.
//
// A work-item function the compiler does not support yet is left out of the
// kernel; its own test below is skipped with the compiler's message, and the
// range tests check every other value.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

// The record layout of workitem_functions.cl.
constexpr uint32_t kRecordWords = 30;
constexpr uint32_t kWorkDim = 0, kGlobalSize = 1, kGlobalId = 4, kLocalSize = 7, kEnqueuedLocalSize = 10,
                   kLocalId = 13, kNumGroups = 16, kGroupId = 19, kGlobalOffset = 22, kGlobalLinearId = 25,
                   kLocalLinearId = 26, kNext = 27, kPrevious = 28, kWrittenWord = 29;
constexpr uint32_t kWritten = 0x600D;
constexpr uint32_t kUnwritten = 0xFFFFFFFF;  // the buffer's fill

std::string field_name(uint32_t word) {
  auto with_dim = [&](const char* name, uint32_t base) { return std::string(name) + "(" + std::to_string(word - base) + ")"; };
  if (word == kWorkDim) return "get_work_dim()";
  if (word < kGlobalId) return with_dim("get_global_size", kGlobalSize);
  if (word < kLocalSize) return with_dim("get_global_id", kGlobalId);
  if (word < kEnqueuedLocalSize) return with_dim("get_local_size", kLocalSize);
  if (word < kLocalId) return with_dim("get_enqueued_local_size", kEnqueuedLocalSize);
  if (word < kNumGroups) return with_dim("get_local_id", kLocalId);
  if (word < kGroupId) return with_dim("get_num_groups", kNumGroups);
  if (word < kGlobalOffset) return with_dim("get_group_id", kGroupId);
  if (word < kGlobalLinearId) return with_dim("get_global_offset", kGlobalOffset);
  if (word == kGlobalLinearId) return "get_global_linear_id()";
  if (word == kLocalLinearId) return "get_local_linear_id()";
  if (word == kNext) return "__local exchange, token of the next work-item after the first barrier";
  if (word == kPrevious) return "__local exchange, second token of the previous work-item after the third barrier";
  return "written marker";
}

// --- The program, with the optional work-item functions that compile -------

const char* kSource = VKCL_NDRANGE_SHADERS_DIR "/workitem_functions.cl";

struct OptionalFunction {
  const char* name;
  const char* define;
  uint32_t word;
};
constexpr OptionalFunction kOptional[] = {
    {"get_global_linear_id()", "VKCL_TEST_GLOBAL_LINEAR_ID", kGlobalLinearId},
    {"get_local_linear_id()", "VKCL_TEST_LOCAL_LINEAR_ID", kLocalLinearId},
};

void PrintTo(const OptionalFunction& f, std::ostream* out) { *out << f.name; }

struct Built {
  std::optional<Program> program;
  std::string error;  // when the kernel without any optional function does not compile
  // Per kOptional entry: empty when it compiles and is checked, else the compiler's message.
  std::vector<std::string> unsupported;
  bool checks(uint32_t word) const {
    for (size_t i = 0; i < std::size(kOptional); ++i)
      if (kOptional[i].word == word) return unsupported[i].empty();
    return true;
  }
};

Program build(const std::string& source, const std::vector<std::string>& defines) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL3_0;  // get_enqueued_local_size and the linear ids are OpenCL C 2.0 and later
  options.defines = defines;
  return build_program(test::device(), source, kSource, options);
}

// Each optional function is tried on its own, so that one that fails names
// itself; the program is then built with every one that compiled.
// `reqd`: the kernel's reqd_work_group_size, "x,y,z", or empty for none.
const Built& built(const std::string& reqd = "") {
  // The device first: statics are destroyed in reverse order, and these
  // programs must go before it.
  test::device();
  static std::map<std::string, Built> programs;
  auto found = programs.find(reqd);
  if (found != programs.end()) return found->second;
  return programs[reqd] = [&] {
    Built b;
    const std::string source = test::read_text(kSource);
    std::vector<std::string> defines;
    if (!reqd.empty()) defines.push_back("VKCL_TEST_REQD_WORK_GROUP_SIZE=" + reqd);
    for (const OptionalFunction& f : kOptional) {
      try {
        build(source, {f.define});
        defines.push_back(f.define);
        b.unsupported.emplace_back();
      } catch (const CompileError& e) {
        b.unsupported.emplace_back(e.what());
      }
    }
    try {
      b.program.emplace(build(source, defines));
    } catch (const CompileError& e) {
      b.error = e.what();
    }
    return b;
  }();
}

// --- The ranges ----------------------------------------------------------------

uint32_t max_local_1d(const DispatchLimits& l) { return std::min(l.max_invocations, l.max_local_size[0]); }

bool is_prime(uint64_t n) {
  if (n < 2) return false;
  for (uint64_t p = 2; p * p <= n; ++p)
    if (n % p == 0) return false;
  return true;
}

// The smallest prime above maxWG + 1 (one lies below 2 * maxWG, by Bertrand's postulate).
uint64_t prime_above_max(const DispatchLimits& l) {
  uint64_t n = uint64_t(max_local_1d(l)) + 2;
  while (!is_prime(n)) ++n;
  return n;
}

uint64_t largest_divisor_at_most(uint64_t n, uint64_t most) {
  for (uint64_t d = std::min(n, most); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

struct Case {
  std::string name;
  std::function<NDRange(const DispatchLimits&)> range;
  std::string reqd = {};  // the kernel's reqd_work_group_size, "x,y,z" (equal to the range's local size), or empty
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

std::vector<Case> cases() {
  using L = const DispatchLimits&;
  return {
      // 1-D: maxWG + 1, a prime between maxWG and 2 * maxWG, 20101 and 65521 (both prime).
      {"1D_maxWG_plus_1_local_maxWG", [](L l) { return NDRange::make({max_local_1d(l) + 1ull}, {max_local_1d(l)}); }},
      {"1D_maxWG_plus_1_local_divides_offset",
       [](L l) {
         uint64_t g = max_local_1d(l) + 1ull;
         return NDRange::make({g}, {largest_divisor_at_most(g, max_local_1d(l))}, {23});
       }},
      {"1D_maxWG_plus_1_null_local_offset", [](L l) { return NDRange::make({max_local_1d(l) + 1ull}, {}, {23}); }},
      {"1D_prime_local_maxWG_offset", [](L l) { return NDRange::make({prime_above_max(l)}, {max_local_1d(l)}, {23}); }},
      {"1D_prime_local_1_divides", [](L l) { return NDRange::make({prime_above_max(l)}, {1}); }},
      {"1D_prime_null_local", [](L l) { return NDRange::make({prime_above_max(l)}); }},
      {"1D_20101_local_64_offset", [](L) { return NDRange::make({20101}, {64}, {23}); }},
      {"1D_20101_local_1_divides", [](L) { return NDRange::make({20101}, {1}); }},
      {"1D_20101_null_local_offset", [](L) { return NDRange::make({20101}, {}, {23}); }},
      {"1D_65521_local_256", [](L) { return NDRange::make({65521}, {256}); }},
      {"1D_65521_local_1_divides_offset", [](L) { return NDRange::make({65521}, {1}, {23}); }},
      {"1D_65521_null_local_offset", [](L) { return NDRange::make({65521}, {}, {23}); }},
      {"1D_global_below_local_offset", [](L) { return NDRange::make({5}, {64}, {23}); }},
      // 2-D: 1327 is prime, so only 1 x 1 divides it; a smaller range has a dividing local size.
      {"2D_1327x1327_local_16x16", [](L) { return NDRange::make({1327, 1327}, {16, 16}); }},
      {"2D_1327x1327_local_32x8_offset", [](L) { return NDRange::make({1327, 1327}, {32, 8}, {23, 17}); }},
      {"2D_1327x1327_null_local_offset", [](L) { return NDRange::make({1327, 1327}, {}, {23, 17}); }},
      {"2D_1024x96_local_32x8_divides_offset", [](L) { return NDRange::make({1024, 96}, {32, 8}, {23, 17}); }},
      // 3-D: 113 and 373 are prime; 13 and 279 = 9 * 31 are not.
      {"3D_113x113x113_local_4x4x4", [](L) { return NDRange::make({113, 113, 113}, {4, 4, 4}); }},
      {"3D_113x113x113_local_8x8x4_offset", [](L) { return NDRange::make({113, 113, 113}, {8, 8, 4}, {11, 23, 17}); }},
      // 113 is prime: only 113 divides it, and along x, since devices may allow only 64 along z (NVIDIA).
      {"3D_113x113x113_local_113x1x1_divides_offset",
       [](L) { return NDRange::make({113, 113, 113}, {113, 1, 1}, {11, 23, 17}); }},
      {"3D_113x113x113_null_local_offset", [](L) { return NDRange::make({113, 113, 113}, {}, {11, 23, 17}); }},
      {"3D_373x13x279_local_1x13x9_divides", [](L) { return NDRange::make({373, 13, 279}, {1, 13, 9}); }},
      {"3D_373x13x279_local_7x5x3_offset", [](L) { return NDRange::make({373, 13, 279}, {7, 5, 3}, {11, 23, 17}); }},
      {"3D_373x13x279_local_16x4x4", [](L) { return NDRange::make({373, 13, 279}, {16, 4, 4}); }},
      {"3D_373x13x279_null_local_offset", [](L) { return NDRange::make({373, 13, 279}, {}, {11, 23, 17}); }},
      {"3D_9x10x11_local_4x4x4_offset", [](L) { return NDRange::make({9, 10, 11}, {4, 4, 4}, {11, 23, 17}); }},
      // With reqd_work_group_size: edge groups are smaller than the enqueued size the kernel was compiled with.
      {"1D_20101_reqd_64_offset", [](L) { return NDRange::make({20101}, {64}, {23}); }, "64,1,1"},
      {"2D_1327x1327_reqd_32x8_offset", [](L) { return NDRange::make({1327, 1327}, {32, 8}, {23, 17}); }, "32,8,1"},
      {"3D_373x13x279_reqd_7x5x3_offset",
       [](L) { return NDRange::make({373, 13, 279}, {7, 5, 3}, {11, 23, 17}); }, "7,5,3"},
  };
}

std::string describe(const NDRange& r, const std::array<uint32_t, 3>& enqueued) {
  std::ostringstream s;
  auto triple = [&](const auto& v) {
    for (uint32_t d = 0; d < r.dims; ++d) s << (d ? "x" : "") << v[d];
  };
  s << r.dims << "-D global ";
  triple(r.global);
  s << (r.local[0] ? " local " : " local (runtime's choice) ");
  triple(enqueued);
  s << " offset ";
  triple(r.offset);
  return s.str();
}

// --- The reference: OpenCL's definitions -------------------------------------

// The ND-range as the kernel must see it, with dimensions at or above
// work_dim at their defined values (global size 1, local size 1, offset 0).
struct Range {
  uint32_t dims;
  std::array<uint32_t, 3> global, local, offset, groups;
};

Range reference_range(const NDRange& r, const std::array<uint32_t, 3>& enqueued) {
  Range e{r.dims, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
  for (uint32_t d = 0; d < r.dims; ++d) {
    e.global[d] = uint32_t(r.global[d]);
    e.local[d] = enqueued[d];
    e.offset[d] = uint32_t(r.offset[d]);
    e.groups[d] = (e.global[d] + e.local[d] - 1) / e.local[d];  // the last group may be partial
  }
  return e;
}

struct WorkItem {
  std::array<uint32_t, 3> rel;  // global id - global offset
  std::array<uint32_t, 3> group, lid, local_size;
};

WorkItem work_item(const Range& e, std::array<uint32_t, 3> rel) {
  WorkItem w{rel, {}, {}, {}};
  for (int d = 0; d < 3; ++d) {
    w.group[d] = rel[d] / e.local[d];
    w.lid[d] = rel[d] % e.local[d];
    w.local_size[d] = std::min(e.local[d], e.global[d] - w.group[d] * e.local[d]);
  }
  return w;
}

uint32_t global_linear(const Range& e, const std::array<uint32_t, 3>& rel) {
  return rel[0] + e.global[0] * (rel[1] + e.global[1] * rel[2]);
}

uint32_t local_linear(const WorkItem& w) {
  return w.lid[0] + w.local_size[0] * (w.lid[1] + w.local_size[1] * w.lid[2]);
}

// The global linear id of the work-item of w's group whose local linear id is `i`.
uint32_t group_member(const Range& e, const WorkItem& w, uint32_t i) {
  std::array<uint32_t, 3> lid{i % w.local_size[0], i / w.local_size[0] % w.local_size[1],
                              i / (w.local_size[0] * w.local_size[1])};
  std::array<uint32_t, 3> rel;
  for (int d = 0; d < 3; ++d) rel[d] = w.group[d] * e.local[d] + lid[d];
  return global_linear(e, rel);
}

void expected_record(const Range& e, const WorkItem& w, uint32_t* out) {
  out[kWorkDim] = e.dims;
  for (int d = 0; d < 3; ++d) {
    out[kGlobalSize + d] = e.global[d];
    out[kGlobalId + d] = e.offset[d] + w.rel[d];
    out[kLocalSize + d] = w.local_size[d];
    out[kEnqueuedLocalSize + d] = e.local[d];
    out[kLocalId + d] = w.lid[d];
    out[kNumGroups + d] = e.groups[d];
    out[kGroupId + d] = w.group[d];
    out[kGlobalOffset + d] = e.offset[d];
  }
  out[kGlobalLinearId] = global_linear(e, w.rel);  // OpenCL C 2.0: (id - offset) linearized over the global size
  const uint32_t i = local_linear(w), n = w.local_size[0] * w.local_size[1] * w.local_size[2];
  out[kLocalLinearId] = i;
  out[kNext] = 2 * group_member(e, w, (i + 1) % n) + 1;
  out[kPrevious] = 2 * group_member(e, w, (i + n - 1) % n) + 2;
  out[kWrittenWord] = kWritten;
}

// --- The tests ------------------------------------------------------------------

class NDRangeConformance : public ::testing::TestWithParam<Case> {};

TEST_P(NDRangeConformance, EveryWorkItemFunctionAndTheLocalExchange) {
  Device& dev = test::device();
  const Built& b = built(GetParam().reqd);
  ASSERT_TRUE(b.program) << kSource << " does not compile:\n" << b.error;

  const DispatchLimits limits = dev.dispatch_limits();
  const NDRange range = GetParam().range(limits);
  std::array<uint32_t, 3> enqueued{1, 1, 1};
  for (uint32_t d = 0; d < range.dims; ++d) enqueued[d] = uint32_t(range.local[d]);
  if (range.local[0] == 0) {
    // OpenCL leaves the choice to the implementation; vkcl documents its rule
    // (choose_local_size), and the choice must be one the device can run.
    enqueued = choose_local_size(range, limits);
    uint64_t invocations = uint64_t(enqueued[0]) * enqueued[1] * enqueued[2];
    EXPECT_LE(invocations, limits.max_invocations) << "the runtime's local size";
    for (uint32_t d = 0; d < 3; ++d) {
      EXPECT_GE(enqueued[d], 1u) << "the runtime's local size, dimension " << d;
      EXPECT_LE(enqueued[d], limits.max_local_size[d]) << "the runtime's local size, dimension " << d;
    }
  }
  const std::string what = describe(range, enqueued);
  const Range e = reference_range(range, enqueued);
  const uint64_t items = uint64_t(e.global[0]) * e.global[1] * e.global[2];
  std::string unchecked;
  for (size_t i = 0; i < std::size(kOptional); ++i)
    if (!b.unsupported[i].empty()) unchecked += std::string(unchecked.empty() ? "" : ", ") + kOptional[i].name;
  std::printf("%s: %llu work-items%s\n", what.c_str(), static_cast<unsigned long long>(items),
              unchecked.empty() ? "" : (" (not checked, does not compile: " + unchecked + ")").c_str());

  Kernel kernel = b.program->kernel("workitem_functions");
  Buffer records(dev, items * kRecordWords * sizeof(uint32_t));
  records.fill(std::byte{0xFF});  // kUnwritten in every word
  kernel.set_arg("records", records);
  kernel.set_local_arg("scratch", size_t(e.local[0]) * e.local[1] * e.local[2] * sizeof(uint32_t));
  dev.run(kernel, range);

  // Read in chunks, so that a 1.8M-work-item range needs no second copy of its 200 MB.
  constexpr uint64_t kChunk = 1 << 16;
  std::vector<uint64_t> wrong(kRecordWords, 0);
  uint64_t unwritten = 0, reported = 0;
  std::array<uint32_t, kRecordWords> want;
  for (uint64_t first = 0; first < items; first += kChunk) {
    const uint64_t count = std::min(kChunk, items - first);
    const std::vector<uint32_t> got = records.read<uint32_t>(count * kRecordWords, first * kRecordWords * 4);
    for (uint64_t k = 0; k < count; ++k) {
      const uint64_t r = first + k;
      const std::array<uint32_t, 3> rel{uint32_t(r % e.global[0]), uint32_t(r / e.global[0] % e.global[1]),
                                        uint32_t(r / (uint64_t(e.global[0]) * e.global[1]))};
      const WorkItem w = work_item(e, rel);
      const uint32_t* record = &got[k * kRecordWords];
      auto where = [&] {
        std::ostringstream s;
        s << what << ": work-item with global id (";
        for (uint32_t d = 0; d < e.dims; ++d) s << (d ? "," : "") << e.offset[d] + rel[d];
        s << ") in work-group (";
        for (uint32_t d = 0; d < e.dims; ++d) s << (d ? "," : "") << w.group[d];
        s << "): ";
        return s.str();
      };
      if (std::all_of(record, record + kRecordWords, [](uint32_t v) { return v == kUnwritten; })) {
        if (++unwritten, ++reported <= 8) ADD_FAILURE() << where() << "no work-item wrote its record";
        continue;
      }
      expected_record(e, w, want.data());
      for (uint32_t f = 0; f < kRecordWords; ++f) {
        if (record[f] == want[f] || !b.checks(f)) continue;
        ++wrong[f];
        if (++reported <= 8)
          ADD_FAILURE() << where() << field_name(f) << " expected " << want[f] << ", got " << record[f]
                        << (record[f] == kUnwritten ? " (never written)" : "");
      }
    }
  }
  std::ostringstream summary;
  for (uint32_t f = 0; f < kRecordWords; ++f)
    if (wrong[f]) summary << "\n  " << field_name(f) << ": " << wrong[f] << " work-items wrong";
  if (unwritten) summary << "\n  records never written: " << unwritten;
  EXPECT_EQ(reported, 0u) << what << ": " << items << " work-items checked" << summary.str();
}

INSTANTIATE_TEST_SUITE_P(Ranges, NDRangeConformance, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// One test per optional work-item function: skipped, with the compiler's
// message, when the function does not compile (and its word goes unchecked
// in the range tests above), else a reminder that those tests check it.
class OptionalWorkItemFunction : public ::testing::TestWithParam<OptionalFunction> {};

TEST_P(OptionalWorkItemFunction, CompilesAndIsChecked) {
  const Built& b = built();
  ASSERT_TRUE(b.program) << kSource << " does not compile:\n" << b.error;
  size_t i = 0;
  while (std::string_view(kOptional[i].define) != GetParam().define) ++i;
  if (!b.unsupported[i].empty())
    GTEST_SKIP() << GetParam().name << " does not compile, so the NDRangeConformance tests do not check it: "
                 << b.unsupported[i];
}

INSTANTIATE_TEST_SUITE_P(Functions, OptionalWorkItemFunction, ::testing::ValuesIn(kOptional),
                         [](const ::testing::TestParamInfo<OptionalFunction>& info) {
                           return std::string(info.param.define).substr(std::string("VKCL_TEST_").size());
                         });

}  // namespace
}  // namespace vkcl
