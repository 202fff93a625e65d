// The corpus header parser's @bench-* directives (shaders/corpus/README.md,
// "Benchmark scale"): what each sets, what at_bench_scale() makes of it, and
// every error, with its file:line. Parsing only: no device, no OpenCL.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "corpus.h"

namespace vkcl::corpus {
namespace {

// A valid header of lines 1 to 8; `extra` lines come after it (line 9 on).
KernelSpec parse(const std::string& extra) {
  const std::string header =
      "// @kernel scale\n"                                // 1
      "// @global 1024\n"                                 // 2
      "// @local 64\n"                                    // 3
      "// @arg input global float[1024] random(1)\n"      // 4
      "// @arg output global float[1024] zero\n"          // 5
      "// @arg scratch local float[64]\n"                 // 6
      "// @arg n uint 1024\n"                             // 7
      "// @check output ulp 2\n";                         // 8
  return parse_spec(header + extra + "__kernel void scale() {}\n", "k.cl");
}

// The message parse(extra) throws ("" when it does not).
std::string error_of(const std::string& extra) {
  try {
    parse(extra);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

TEST(BenchScale, AHeaderWithoutBenchLinesRunsAtItsNormalSize) {
  const KernelSpec spec = parse("");
  EXPECT_TRUE(spec.bench.empty());
  const KernelSpec scaled = at_bench_scale(spec);
  EXPECT_EQ(scaled.global[0], 1024u);
  EXPECT_EQ(scaled.local[0], 64u);
  EXPECT_EQ(scaled.args[0].count, 1024u);
}

TEST(BenchScale, GlobalAndArgsAreReplacedAndTheLocalSizeKept) {
  const KernelSpec spec = parse(
      "// @bench-global 1048576\n"
      "// @bench-arg input global float[1048576] random(2, -1, 1)\n"
      "// @bench-arg output global float[1048576] zero\n"
      "// @bench-arg n uint 1048576\n");
  ASSERT_TRUE(spec.bench.global);
  EXPECT_EQ(spec.bench.global->line, 9);
  EXPECT_EQ(spec.global[0], 1024u) << "the differential test's size is unchanged";
  const KernelSpec scaled = at_bench_scale(spec);
  EXPECT_EQ(scaled.global[0], 1048576u);
  EXPECT_TRUE(scaled.has_local);
  EXPECT_EQ(scaled.local[0], 64u);
  ASSERT_EQ(scaled.args.size(), 4u);
  EXPECT_EQ(scaled.args[0].count, 1048576u);
  EXPECT_EQ(scaled.args[0].generator.text, "random(2, -1, 1)");
  EXPECT_EQ(scaled.args[1].count, 1048576u);
  EXPECT_EQ(scaled.args[2].count, 64u) << "an argument without @bench-arg stays";
  EXPECT_EQ(scaled.args[3].value, "1048576");
  EXPECT_EQ(scaled.find_arg("output")->bytes(), 1048576u * 4) << "the check compares the bench-scale buffer";
}

TEST(BenchScale, BenchLocalReplacesTheLocalSize) {
  const KernelSpec scaled = at_bench_scale(parse(
      "// @bench-global 4096\n"
      "// @bench-local 256\n"
      "// @bench-arg scratch local float[256]\n"));
  EXPECT_EQ(scaled.global[0], 4096u);
  EXPECT_EQ(scaled.local[0], 256u);
  EXPECT_EQ(scaled.args[2].count, 256u);
}

TEST(BenchScale, BenchLocalWithoutAHeaderLocalSetsOne) {
  const KernelSpec spec = parse_spec(
      "// @kernel k\n// @global 16,16\n// @arg out global int[256] zero\n// @check out exact\n"
      "// @bench-global 512,512\n// @bench-local 16,8\n// @bench-arg out global int[262144] zero\n",
      "k.cl");
  EXPECT_FALSE(spec.has_local);
  const KernelSpec scaled = at_bench_scale(spec);
  EXPECT_TRUE(scaled.has_local);
  EXPECT_EQ(scaled.dims, 2u);
  EXPECT_EQ(scaled.global[1], 512u);
  EXPECT_EQ(scaled.local[1], 8u);
}

TEST(BenchScale, BenchLinesMayComeBeforeTheLinesTheyReplace) {
  const KernelSpec spec = parse_spec(
      "// @kernel k\n// @bench-global 64\n// @bench-arg out global int[64] iota\n"
      "// @global 8\n// @arg out global int[8] zero\n// @check out exact\n",
      "k.cl");
  EXPECT_EQ(at_bench_scale(spec).args[0].count, 64u);
}

TEST(BenchScale, SkipKeepsItsReason) {
  const KernelSpec spec = parse("// @bench-skip  tests a corner, too small to time \n");
  EXPECT_EQ(spec.bench.skip, "tests a corner, too small to time");
  EXPECT_EQ(spec.bench.skip_line, 9);
  EXPECT_FALSE(spec.bench.empty());
}

TEST(BenchScale, AtBenchScaleTwiceIsAtBenchScaleOnce) {
  const KernelSpec once = at_bench_scale(parse("// @bench-global 2048\n// @bench-arg n uint 2048\n"));
  const KernelSpec twice = at_bench_scale(once);
  EXPECT_EQ(twice.global, once.global);
  EXPECT_EQ(twice.args[3].value, "2048");
}

struct BadHeader {
  const char* name;
  const char* extra;     // lines 9 on
  const char* message;   // expected in the error, after "k.cl:LINE: "
  int line;
};

// gtest names a case by this, not by its bytes.
void PrintTo(const BadHeader& bad, std::ostream* out) { *out << bad.name; }

class BenchScaleErrors : public ::testing::TestWithParam<BadHeader> {};

TEST_P(BenchScaleErrors, NameTheLineAndTheProblem) {
  const BadHeader& bad = GetParam();
  const std::string error = error_of(bad.extra);
  ASSERT_FALSE(error.empty()) << "no error for:\n" << bad.extra;
  const std::string where = "k.cl:" + std::to_string(bad.line) + ": ";
  EXPECT_EQ(error.rfind(where, 0), 0u) << error;
  EXPECT_NE(error.find(bad.message), std::string::npos) << error;
}

const BadHeader kBadHeaders[] = {
    {"UnknownBenchDirective", "// @bench-size 4096\n", "unknown directive '@bench-size'", 9},
    {"BenchGlobalTwice", "// @bench-global 2048\n// @bench-global 4096\n", "@bench-global given twice (first at line 9)", 10},
    {"BenchLocalTwice", "// @bench-local 32\n// @bench-local 32\n", "@bench-local given twice", 10},
    {"BenchArgTwice", "// @bench-arg n uint 5\n// @bench-arg n uint 6\n", "@bench-arg given twice (first at line 9)", 10},
    {"BenchSkipTwice", "// @bench-skip a\n// @bench-skip b\n", "@bench-skip given twice", 10},
    {"BenchSkipWithoutReason", "// @bench-skip\n", "@bench-skip needs a reason", 9},
    {"BenchSkipWithGlobal", "// @bench-global 2048\n// @bench-skip too small\n", "@bench-skip with other @bench-* lines", 10},
    {"BenchSkipWithArg", "// @bench-skip too small\n// @bench-arg n uint 5\n", "@bench-skip with other @bench-* lines", 9},
    {"BenchGlobalNotASize", "// @bench-global lots\n", "'lots' is not a size", 9},
    {"BenchGlobalZero", "// @bench-global 0\n", "@bench-global sizes must be positive", 9},
    {"BenchGlobalOtherDimensions", "// @bench-global 64,64\n", "@bench-global has 2 dimensions, @global 1", 9},
    {"BenchLocalOtherDimensions", "// @bench-local 8,8\n", "@bench-local has 2 dimensions, @global 1", 9},
    {"BenchLocalDoesNotDivide", "// @bench-global 2048\n// @bench-local 96\n", "is not a multiple of the local size 96", 10},
    {"HeaderLocalDoesNotDivideBenchGlobal", "// @bench-global 1000\n", "is not a multiple of the local size 64 (@local)", 9},
    {"BenchLocalDoesNotDivideGlobal", "// @bench-local 48\n", "global size 1024 is not a multiple of the local size 48", 9},
    {"BenchArgNamesNoArg", "// @bench-arg m uint 5\n", "@bench-arg names 'm', which no @arg describes", 9},
    {"BenchArgChangesKind", "// @bench-arg input constant float[4096] zero\n", "is constant, its @arg (line 4) global", 9},
    {"BenchArgLocalToGlobal", "// @bench-arg scratch global float[64] zero\n", "is global, its @arg (line 6) local", 9},
    {"BenchArgScalarToBuffer", "// @bench-arg n global uint[4] zero\n", "is global, its @arg (line 7) scalar", 9},
    {"BenchArgChangesType", "// @bench-arg input global double[4096] zero\n", "has type double, its @arg (line 4) float", 9},
    {"BenchArgChangesWidth", "// @bench-arg input global float4[256] zero\n", "has type float4, its @arg (line 4) float", 9},
    {"BenchArgScalarChangesType", "// @bench-arg n int 5\n", "has type int, its @arg (line 7) uint", 9},
    {"BenchArgBadValue", "// @bench-arg n uint -5\n", "'-5' is not a uint value", 9},
    {"BenchArgBadGenerator", "// @bench-arg input global float[4096] noise(3)\n", "unknown generator 'noise(3)'", 9},
    {"BenchArgWithoutGenerator", "// @bench-arg input global float[4096]\n", "needs a generator", 9},
    {"BenchArgZeroCount", "// @bench-arg input global float[0] zero\n", "the count must be a positive number", 9},
};

INSTANTIATE_TEST_SUITE_P(Corpus, BenchScaleErrors, ::testing::ValuesIn(kBadHeaders),
                         [](const ::testing::TestParamInfo<BadHeader>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace vkcl::corpus
