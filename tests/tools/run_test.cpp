// vkcl-run end to end: the built binary, run in a fresh temporary directory
// per test, judged by its exit status, its output and the files it writes.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

// shaders/examples/reduce.cl, copied into each test's directory: the runner
// gets the same file name wherever the repository lies, so the modules that
// VKCL_MODULE_CACHE records here replay on a machine without the compiler.
const std::string kReduce = "reduce.cl";

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The numbers after "NAME[0:COUNT]: " on the line that starts so.
std::vector<double> printed(const std::string& out, const std::string& name) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with(name + "[0:")) continue;
    std::istringstream values(line.substr(line.find("]: ") + 3));
    std::vector<double> numbers;
    for (double v; values >> v;) numbers.push_back(v);
    return numbers;
  }
  return {};
}

// What reduce.cl leaves in partial_sums for input 0, 1, 2, ... (n - 1):
// exact in float while every partial sum stays below 2^24.
std::vector<double> iota_partial_sums(uint64_t n, uint64_t local) {
  std::vector<double> sums((n + local - 1) / local, 0.0);
  for (uint64_t i = 0; i < n; ++i) sums[i / local] += static_cast<double>(i);
  return sums;
}

class RunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("vkcl_run_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy_file(fs::path(VKCL_SOURCE_DIR) / "shaders/examples/reduce.cl", dir_ / kReduce);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  void write(const std::string& name, const std::string& bytes) { std::ofstream(dir_ / name, std::ios::binary) << bytes; }
  std::string read(const std::string& name) const { return read_file(dir_ / name); }

  // `kill_after_s`: nonzero runs it under coreutils' timeout, which kills it
  // (exit status 137) if it has not ended by then: a hang fails the test
  // instead of hanging it.
  RunResult run(const std::string& args, int kill_after_s = 0) {
    const std::string killer = kill_after_s ? "timeout -s KILL " + std::to_string(kill_after_s) + " " : "";
    const std::string command = "cd '" + dir_.string() + "' && " + killer + "'" VKCL_RUN_PATH "' " + args +
                                " < /dev/null > run.stdout 2> run.stderr";
    const int status = std::system(command.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read("run.stdout");
    result.err = read("run.stderr");
    fs::remove(dir_ / "run.stdout");
    fs::remove(dir_ / "run.stderr");
    return result;
  }

  fs::path dir_;
};

// A few kernels for what reduce.cl does not exercise.
constexpr const char* kKernels = R"(
kernel void copy(global const float* in, global float* out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
kernel void affine(global const float* in, global float* out, float4 k) {
  size_t i = get_global_id(0);
  // Two statements: clang would contract "a * b + c" into mad, which vkcl's
  // lowering does not support yet.
  float scaled = in[i] * k.x;
  out[i] = scaled + k.w;
}
// Each work-item of a 2-D range with offset writes its ids where the host can find them.
kernel void ids(global int* out, int row_pitch) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  out[y * row_pitch + x] = (int)(get_global_id(0) * 100 + get_global_id(1));
}
#ifndef VALUE
#define VALUE 0
#endif
kernel void add_macro(global int* out) { out[get_global_id(0)] = VALUE + (__OPENCL_C_VERSION__ >= 200 ? 1000 : 0); }
kernel void accumulate(global int* data) { data[get_global_id(0)] += 1; }
)";

// ---------------------------------------------------------------------------
// Runs that succeed

TEST_F(RunTest, HelpPrintsUsageAndExitsZero) {
  RunResult r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("USAGE: vkcl-run <kernel.cl | kernel.spv> <kernel name>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--arg [NAME=|INDEX=]VALUE"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

TEST_F(RunTest, ReduceExampleAsInTheReadme) {
  RunResult r = run("'" + kReduce +
                    "' reduce --global 1048576 --local 256 --arg input=iota:float:1048576 "
                    "--arg partial_sums=zeros:float:4096 --arg scratch=local:1024 --arg n=uint:1048576 "
                    "--print partial_sums:8");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(r.out.starts_with("device: ")) << r.out;
  std::vector<double> expected = iota_partial_sums(1048576, 256);
  expected.resize(8);
  EXPECT_EQ(printed(r.out, "partial_sums"), expected) << r.out;
}

TEST_F(RunTest, NonUniformRangeWrittenToAFile) {
  // 1000 work-items in groups of 256: the last group has 232.
  RunResult r = run("'" + kReduce +
                    "' reduce --global 1000 --local 256 --arg iota:float:1000 --arg zeros:float:4 "
                    "--arg local:1024 --arg uint:1000 --out partial_sums=sums.bin");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("partial_sums: 16 bytes written to sums.bin"), std::string::npos) << r.out;
  const std::string bytes = read("sums.bin");
  ASSERT_EQ(bytes.size(), 16u);
  std::vector<float> sums(4);
  std::memcpy(sums.data(), bytes.data(), 16);
  const std::vector<double> expected = iota_partial_sums(1000, 256);
  for (size_t g = 0; g < 4; ++g) EXPECT_EQ(sums[g], expected[g]) << "group " << g;
}

TEST_F(RunTest, SpvInputGivesWhatTheSourceGives) {
  if (std::string(VKCL_RUN_TEST_SPV).empty()) GTEST_SKIP() << "built without clc: no .spv to run";
  const std::string args =
      " reduce --global 65536 --local 128 --arg input=iota:float:65536 --arg partial_sums=zeros:float:512 "
      "--arg scratch=local:512 --arg n=uint:65536 --print partial_sums";
  RunResult spv = run(std::string("'" VKCL_RUN_TEST_SPV "'") + args);
  ASSERT_EQ(spv.exit_code, 0) << spv.err;
  const std::vector<double> expected = iota_partial_sums(65536, 128);
  EXPECT_EQ(printed(spv.out, "partial_sums"), expected);
  RunResult source = run("'" + kReduce + "'" + args);
  ASSERT_EQ(source.exit_code, 0) << source.err;
  EXPECT_EQ(printed(source.out, "partial_sums"), expected);
}

TEST_F(RunTest, RandomIsReproducibleFromItsSeed) {
  write("k.cl", kKernels);
  auto random_out = [&](const std::string& seed, const std::string& file) {
    RunResult r = run("k.cl copy --global 256 --arg random:float:256" + seed + " --arg zeros:float:256 --out out=" + file);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read(file);
  };
  const std::string seed7 = random_out(":7", "a.bin");
  EXPECT_EQ(random_out(":7", "b.bin"), seed7);
  EXPECT_NE(random_out(":8", "c.bin"), seed7);
  EXPECT_EQ(random_out("", "d.bin"), random_out(":1", "e.bin"));  // the default seed is 1
  // The documented generator: mt19937_64, top 24 bits scaled into [0, 1).
  std::mt19937_64 engine(7);
  ASSERT_EQ(seed7.size(), 256u * 4);
  for (size_t i = 0; i < 256; ++i) {
    float expected = static_cast<float>(engine() >> 40) * 0x1p-24f, got;
    std::memcpy(&got, seed7.data() + 4 * i, 4);
    ASSERT_EQ(got, expected) << "element " << i;
  }
}

TEST_F(RunTest, FileInputVectorScalarAndArgumentsByIndex) {
  write("k.cl", kKernels);
  std::vector<float> input{1.5f, -2.0f, 0.25f, 8.0f};
  write("in.bin", std::string(reinterpret_cast<const char*>(input.data()), 16));
  RunResult r = run("k.cl affine --global 4 --arg 2=float4:3,0,0,0.5 --arg 0=file:float:in.bin --arg 1=fill:float:4:9 "
                    "--print 1 --print in:2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(printed(r.out, "out"), (std::vector<double>{5.0, -5.5, 1.25, 24.5})) << r.out;
  EXPECT_EQ(printed(r.out, "in"), (std::vector<double>{1.5, -2.0})) << r.out;
}

TEST_F(RunTest, TwoDimensionalRangeWithOffset) {
  write("k.cl", kKernels);
  RunResult r = run("k.cl ids --global 3,2 --local 3,1 --offset 5,7 --arg out=fill:int:6:-1 --arg row_pitch=int:3 --print out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(printed(r.out, "out"), (std::vector<double>{507, 607, 707, 508, 608, 708})) << r.out;
}

TEST_F(RunTest, CompilerOptionsReachTheCompiler) {
  write("k.cl", kKernels);
  RunResult r = run("k.cl add_macro --global 2 -DVALUE=7 --arg zeros:int:2 --print out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(printed(r.out, "out"), (std::vector<double>{7, 7}));
  r = run("k.cl add_macro --global 2 -D VALUE=7 -cl-std=CL2.0 --arg zeros:int:2 --print out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(printed(r.out, "out"), (std::vector<double>{1007, 1007}));
}

TEST_F(RunTest, ListDevices) {
  RunResult r = run("--list-devices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("0: ")) << r.out;
  EXPECT_NE(r.out.find("Vulkan "), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST_F(RunTest, RepeatPrintsTheMedianGpuTimeAndStartsEachRunAfresh) {
  write("k.cl", kKernels);
  RunResult r = run("k.cl accumulate --global 1024 --local 64 --arg fill:int:1024:41 --repeat 5 --print data:3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Every run starts from the same contents: 41 + 1, not 41 + 5.
  EXPECT_EQ(printed(r.out, "data"), (std::vector<double>{42, 42, 42}));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(gpu time: median ([0-9.]+) us, min ([0-9.]+) us, max ([0-9.]+) us \(5 runs\))")))
      << r.out;
  const double median = std::stod(m[1]), low = std::stod(m[2]), high = std::stod(m[3]);
  EXPECT_GT(low, 0.0);
  EXPECT_LE(low, median);
  EXPECT_LE(median, high);
}

// ---------------------------------------------------------------------------
// Errors of the kernel or the device: exit status 1

TEST_F(RunTest, CompileErrorExitsOneWithTheDiagnostic) {
  if (!VKCL_RUN_TEST_WITH_COMPILER) GTEST_SKIP() << "built without the compiler: modules are only replayed";
  write("bad.cl", "kernel void k(global int* p) {\n  p[0] = undeclared;\n}\n");
  RunResult r = run("bad.cl k --global 1 --arg zeros:int:1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.cl:2:10: error: use of undeclared identifier 'undeclared'"), std::string::npos) << r.err;
}

TEST_F(RunTest, LimitOfTheDeviceExitsOne) {
  RunResult r = run("'" + kReduce + "' reduce --global 8192 --local 8192 --arg zeros:float:8192 --arg zeros:float:1 "
                    "--arg local:32768 --arg uint:8192");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.err.starts_with("vkcl-run: error: kernel 'reduce': ")) << r.err;
  EXPECT_NE(r.err.find("maxComputeWorkGroup"), std::string::npos) << r.err;
}

TEST_F(RunTest, UnknownDeviceExitsOne) {
  RunResult r = run("'" + kReduce + "' reduce --global 64 --device no-such-gpu --arg zeros:float:64 "
                    "--arg zeros:float:1 --arg local:256 --arg uint:64");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.err.starts_with("vkcl-run: error: selector='no-such-gpu' matches no Vulkan device")) << r.err;
}

// ---------------------------------------------------------------------------
// Kernels that never end: --timeout ends the process, promptly and cleanly

// How long a run that times out after 500 ms may take in all, device creation
// and compilation included (about 1 s here); one that waits for the kernel
// instead never ends, and is killed after kKillAfterS.
constexpr double kHangBoundS = 60;
constexpr int kKillAfterS = 120;

constexpr const char* kHangKernels = R"(
// Spins until *flag is nonzero, which the host never makes it: a volatile
// load is a side effect, so the compiler must keep the loop. GPUs spin
// forever; llvmpipe ends any loop after 65535 iterations (gallivm's loop
// limiter), so there it is the grid's size that makes the run last (minutes).
kernel void spin_forever(volatile global int* flag, global int* out) {
  while (*flag == 0) {
  }
  if (get_global_id(0) == 0) out[0] = 1;
}
// A barrier reached by only part of the work-group (clc warns: "barrier may
// be reached by only part of the work-group"), `rounds` times: undefined
// behaviour in OpenCL C, which hangs a GPU whose barrier waits for every
// work-item, and runs to the end on others (llvmpipe).
kernel void partial_barrier(global int* out, int rounds) {
  local int scratch[64];
  for (int r = 0; r < rounds; ++r) {
    if (get_local_id(0) < 16) barrier(CLK_LOCAL_MEM_FENCE);
    scratch[get_local_id(0)] = r;
  }
  out[get_global_id(0)] = scratch[get_local_id(0)];
}
)";

TEST_F(RunTest, KernelThatNeverEndsTimesOutAndExitsOne) {
  write("hang.cl", kHangKernels);
  const auto start = std::chrono::steady_clock::now();
  // 2^22 work-items: about five minutes of llvmpipe on two cores.
  RunResult r = run("hang.cl spin_forever --global 4194304 --local 64 --arg flag=zeros:int:1 --arg out=zeros:int:1 "
                    "--timeout 500",
                    kKillAfterS);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("spin_forever with --timeout 500: exit status %d after %.2f s\n", r.exit_code, seconds);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("vkcl-run: error: kernel 'spin_forever' did not finish within 500 ms"), std::string::npos) << r.err;
  EXPECT_LT(seconds, kHangBoundS) << "the runner waited for the kernel (or the driver) after the timeout";
}

TEST_F(RunTest, BarrierReachedByPartOfTheWorkGroupEndsWithinTheTimeout) {
  write("hang.cl", kHangKernels);
  const auto start = std::chrono::steady_clock::now();
  RunResult r = run("hang.cl partial_barrier --global 64 --local 64 --arg out=zeros:int:64 --arg rounds=int:100000000 "
                    "--timeout 500",
                    kKillAfterS);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("partial_barrier with --timeout 500: exit status %d after %.2f s\n", r.exit_code, seconds);
  // Undefined behaviour: either it ends (0), or it hangs and the timeout
  // ends the process (1) with the timeout's message; never anything else.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << "\n" << r.err;
  if (r.exit_code == 1) {
    EXPECT_NE(r.err.find("kernel 'partial_barrier' did not finish within 500 ms"), std::string::npos) << r.err;
  }
  EXPECT_LT(seconds, kHangBoundS);
}

// ---------------------------------------------------------------------------
// Usage errors: one line on stderr, exit status 2, nothing run

struct UsageCase {
  std::string args;
  std::string message;  // after "vkcl-run: error: "
};

TEST_F(RunTest, UsageErrorsAreOneLineAndExitTwo) {
  write("k.cl", kKernels);
  write("odd.bin", "12345");
  const std::string ok_args = " --arg zeros:float:64 --arg zeros:float:1 --arg local:256 --arg uint:64";
  const std::string reduce = "'" + kReduce + "' reduce --global 64";
  const std::vector<UsageCase> cases{
      {"", "no input file (expected <kernel.cl | kernel.spv> <kernel name>)"},
      {"k.cl", "no kernel name after 'k.cl'"},
      {"k.cl copy", "no --global size"},
      {"k.cl copy extra --global 1", "unexpected argument 'extra' after the kernel name"},
      {"k.cl copy --global 4 --frobnicate", "unknown option '--frobnicate'"},
      {"k.cl copy --global", "'--global' needs a value"},
      {"k.cl copy --global 1,2,3,4", "--global '1,2,3,4' has 4 dimensions; OpenCL allows 1 to 3"},
      {"k.cl copy --global 8,x", "invalid --global '8,x' (expected 1 to 3 comma-separated non-negative integers)"},
      {"k.cl copy --global 64 --local 8,8", "--local has 2 dimension(s) and --global 1"},
      {"k.cl copy --global 64 --local 0", "--local '0' has a 0; work-groups have at least 1 work-item"},
      {"k.cl copy --global 64 --repeat 0", "invalid --repeat '0' (expected a count from 1 to 1000000)"},
      {"k.cl copy --global 64 --arg n=int:abc", "invalid int value 'abc' in '--arg n=int:abc': not an integer"},
      {"k.cl copy --global 64 --arg n=uchar:256", "invalid uchar value '256' in '--arg n=uchar:256': out of range"},
      {"k.cl copy --global 64 --arg n=quad:5",
       "unknown value 'quad' in '--arg n=quad:5' (expected TYPE:VALUE, zeros|iota|random|fill:TYPE:COUNT..., "
       "file:TYPE:PATH or local:BYTES)"},
      {"k.cl copy --global 64 --arg zeros:float4:4",
       "buffer element type 'float4' in '--arg zeros:float4:4' is a vector; give its scalar type and count the scalars"},
      {"k.cl copy --global 64 --arg zeros:float:0",
       "invalid element count '0' in '--arg zeros:float:0' (expected a positive integer)"},
      {"k.cl copy --global 64 --out out", "'--out out' does not match --out NAME=PATH"},
      {"k.txt copy --global 1", "input 'k.txt' is neither OpenCL C (.cl) nor SPIR-V from clc (.spv)"},
      {"missing.cl copy --global 1", "no such file: 'missing.cl' (the kernel source)"},
      {"k.cl copy --global 1 -cl-std=CL9.9", "invalid value 'CL9.9' in '-cl-std=CL9.9' (expected CL1.2, CL2.0 or CL3.0)"},
      // Checked against the kernel's reflection, still before anything runs.
      {"k.cl nope --global 64", "'k.cl' has no kernel 'nope' (it has: copy, affine, ids, add_macro, accumulate)"},
      {reduce + " --arg nope=int:1",
       "'--arg nope=int:1': kernel 'reduce' has no argument named 'nope' (its arguments: input, partial_sums, scratch, n)"},
      {reduce + " --arg input=zeros:float:64", "kernel 'reduce' argument(s) not given: 1 (partial_sums), 2 (scratch), 3 (n)"},
      {reduce + " --arg n=zeros:float:4",
       "'--arg n=zeros:float:4' is a buffer, but argument 3 (n) of kernel 'reduce' is a by-value argument: give TYPE:VALUE"},
      {reduce + " --arg zeros:float:64 --arg input=zeros:float:1",
       "argument 0 (input) of kernel 'reduce' is given twice: '--arg zeros:float:64' and '--arg input=zeros:float:1'"},
      {reduce + " --arg zeros:float:64 --arg zeros:float:1 --arg local:256 --arg ulong:64",
       "'--arg ulong:64': kernel 'reduce' argument 3 (n) takes 4 bytes; the value given has 8"},
      {reduce + " --arg zeros:float:64 --arg zeros:float:1 --arg local:6 --arg uint:64",
       "'--arg local:6': kernel 'reduce' argument 2 (scratch): 6 bytes of __local memory is not a nonzero multiple of its "
       "element size 4"},
      {reduce + ok_args + " --arg uint:3", "'--arg uint:3' would set argument 4, but kernel 'reduce' has 4 argument(s)"},
      {reduce + ok_args + " --print n", "'--print n': argument 3 (n) of kernel 'reduce' is not a buffer"},
      {reduce + ok_args + " --print partial_sums:2", "'--print partial_sums:2': the buffer has 1 float element(s)"},
      {reduce + ok_args + " --out partial_sums=no/such/dir/x.bin", "'--out partial_sums=no/such/dir/x.bin': no directory 'no/such/dir'"},
      {"k.cl copy --global 64 --arg file:float:odd.bin --arg zeros:float:64",
       "'odd.bin' has 5 bytes, not a positive whole number of floats (4 bytes each), in '--arg file:float:odd.bin'"},
  };
  for (const UsageCase& c : cases) {
    RunResult r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err, "vkcl-run: error: " + c.message + "\n") << c.args;
  }
  if (!std::string(VKCL_RUN_TEST_SPV).empty()) {
    RunResult r = run(std::string("'" VKCL_RUN_TEST_SPV "' reduce --global 1 -DX=1"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, std::string("vkcl-run: error: '-DX=1' applies only to .cl input, and '" VKCL_RUN_TEST_SPV "' is SPIR-V\n"));
  }
}

}  // namespace
