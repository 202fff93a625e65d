// Golden tests of what the optimizer does to barrier loops
// (tools/clc/unroll_barrier_loops.h): which loops are fully unrolled, and
// that no loop with a barrier is unrolled partially, so that every barrier
// still runs exactly as often as the source says.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "barrier_inspection.h"
#include "compiler.h"
#include "module.h"

namespace vkcl::testing {
namespace {

std::vector<uint32_t> compile(const std::string& source) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL1_2;
  return compile_opencl(source, "optimization.cl", options).module.words;
}

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

size_t count(std::span<const uint32_t> words, spv::Op opcode) {
  spirv::Module m = spirv::Module::parse(words);
  size_t n = 0;
  for (const spirv::Function& f : m.functions)
    for (const spirv::Instruction& i : f.code) n += i.opcode == opcode;
  return n;
}

// The Hillis-Steele scan of the benchmark: one barrier before its loop of
// eight steps (offset 1, 2, ..., 128), one in each step. Unrolled, each copy
// reads buffers[0 or 1][lid - constant].
TEST(BarrierLoops, ScanLoopIsFullyUnrolled) {
  const std::vector<uint32_t> words = compile(read_file(VKCL_SHADERS_DIR "/bench/scan.cl"));
  EXPECT_EQ(count(words, spv::Op::OpLoopMerge), 0u) << disassemble(words);
  const std::vector<Barrier> barriers = barriers_in(words);
  ASSERT_EQ(barriers.size(), 9u) << disassemble(words);
  for (const Barrier& b : barriers)
    EXPECT_EQ(describe(b), "OpControlBarrier Workgroup Workgroup AcquireRelease|WorkgroupMemory|MakeAvailable|MakeVisible");
}

// A loop whose trip count is only known at run time keeps its two barriers
// in one loop: no run-time or partial unrolling.
TEST(BarrierLoops, RunTimeTripCountStaysOneLoop) {
  const std::vector<uint32_t> words = compile(read_file(VKCL_SHADERS_DIR "/bench/barrier_chain.cl"));
  EXPECT_EQ(count(words, spv::Op::OpLoopMerge), 1u) << disassemble(words);
  EXPECT_EQ(count(words, spv::Op::OpControlBarrier), 2u) << disassemble(words);
}

// 64 iterations: far above the threshold when unrolled, and not unrolled
// partially either (that would multiply the barriers in the loop).
TEST(BarrierLoops, LargeConstantTripCountStaysOneLoop) {
  const std::vector<uint32_t> words = compile(R"(
kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void big(global uint* out) {
  local uint t[256];
  const uint lid = get_local_id(0);
  uint v = lid;
  for (uint i = 0; i < 64; ++i) {
    t[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += t[(lid + i) & 255u];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)");
  EXPECT_EQ(count(words, spv::Op::OpLoopMerge), 1u) << disassemble(words);
  EXPECT_EQ(count(words, spv::Op::OpControlBarrier), 2u) << disassemble(words);
}

// The same loop with and without a barrier: its unrolled size lies between
// O2's threshold (150) and the barrier loops' (300), so only the loop with
// the barrier is unrolled; the other keeps LLVM's default.
std::string hashing_loop(bool with_barrier) {
  return std::string(R"(
kernel void hash(global const uint* in, global uint* out) {
  const uint gid = get_global_id(0);
  uint sum = 0;
  for (uint offset = 1; offset < 256; offset <<= 1) {
    uint x = gid >= offset ? in[gid - offset] : 0u;
    sum += x * offset ^ (sum >> 3);
    sum = sum * 0x9e3779b9u + (x >> 1) * (sum ^ offset);
    sum = sum * 0x9e3779b9u + (x >> 2) * (sum ^ offset);
    sum = sum * 0x9e3779b9u + (x >> 3) * (sum ^ offset);
)") + (with_barrier ? "    barrier(CLK_GLOBAL_MEM_FENCE);\n" : "") + R"(  }
  out[gid] = sum;
}
)";
}

TEST(BarrierLoops, OnlyLoopsWithBarriersGetTheHigherThreshold) {
  const std::vector<uint32_t> with_barrier = compile(hashing_loop(true));
  EXPECT_EQ(count(with_barrier, spv::Op::OpLoopMerge), 0u) << disassemble(with_barrier);
  EXPECT_EQ(count(with_barrier, spv::Op::OpControlBarrier), 8u) << disassemble(with_barrier);
  const std::vector<uint32_t> without = compile(hashing_loop(false));
  EXPECT_EQ(count(without, spv::Op::OpLoopMerge), 1u) << disassemble(without);
}

}  // namespace
}  // namespace vkcl::testing
