// Control flow that LLVM's structurization and spirv/structurize_control_flow
// must take, from real programs, run on the device against results
// computed here: OpenMM's CCMA matrix product, whose inner `for (;;)` loop
// never exits when the system has no constraints (its limit is the macro
// NUM_CCMA_CONSTRAINTS, 0 there), behind a branch that is never taken; an
// endless loop behind a branch taken on none of the inputs; and loops left
// from several places at once (a break out of two loops, an early return
// from inside a loop with barriers).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

// OpenMM 7.7's multiplyByCCMAConstraintMatrixKernel, as its OpenCL platform
// compiles it (mixed = float).
constexpr const char* kCcma = R"CL(
__kernel void multiplyByCCMAConstraintMatrixKernel(__global const float* restrict delta1,
    __global float* restrict delta2, __global const int* restrict constraintMatrixColumn,
    __global const float* restrict constraintMatrixValue, __global const int* restrict converged, int iteration) {
  if (converged[iteration % 2])
    return;
  for (int index = get_global_id(0); index < NUM_CCMA_CONSTRAINTS; index += get_global_size(0)) {
    float sum = 0;
    for (int i = 0; ; i++) {
      int element = index + i * NUM_CCMA_CONSTRAINTS;
      int column = constraintMatrixColumn[element];
      if (column >= NUM_CCMA_CONSTRAINTS)
        break;
      sum += delta1[column] * constraintMatrixValue[element];
    }
    delta2[index] = sum;
  }
}
)CL";

constexpr const char* kShapes = R"CL(
// Runs forever if in[0] is negative, which no test passes.
__kernel void endless_unless(__global int* in, __global int* out) {
  int g = get_global_id(0);
  if (in[0] < 0) {
    int s = 0;
    for (;;) { s += in[g]; out[g] = s; }
  }
  out[g] = in[g] * 2;
}

// Two loops in a row whose first, once unrotate_loops tests it at its top,
// leaves straight into the second's header (OpenMM's neighbour-list kernel
// has the shape; the exit's phis named the old latch as their parent).
__kernel void consecutive_loops(__global int* out, __global const int* in, int n) {
  int acc = 0;
  for (int t = 0; t < 100; t++) acc += in[t] * t;
  for (int s = 0; s < 100; s++) acc ^= in[(s + acc) & 63];
  int m = 0, sum = 0;
  for (int t = 0; t < n; t++) { sum += in[t] * t; if (sum > 1000) break; }
  for (int s = 0; s < 50; s++) m += in[(s + sum) & 63];
  out[get_global_id(0)] = acc + m + sum;
}

// A break out of two loops, a continue, and an early return from inside a
// loop whose iterations hold barriers (the return depends only on __local
// data that every work-item reads after a barrier).
__kernel void several_exits(__global const int* in, __global int* out, int n) {
  __local int done;
  int l = get_local_id(0), g = get_global_id(0);
  int acc = 0;
  for (int round = 0; round < 8; round++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) done = in[round] < 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (done) { out[g] = acc + 1000; return; }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if ((i * n + j + g) % 7 == 6) goto next_round;
        if ((j + g) % 3 == 2) continue;
        acc += in[(i + j + round) % 8];
      }
    }
  next_round:;
  }
  out[g] = acc;
}
)CL";

Program& program(const std::string& source, const std::string& defines) {
  test::device();
  static std::map<std::string, Program> programs;
  const std::string key = defines + source;
  if (auto it = programs.find(key); it != programs.end()) return it->second;
  CompileOptions options;
  options.cl_std = OpenCLStd::CL1_2;
  return programs.emplace(key, build_program(test::device(), defines + source, "shapes.cl", options)).first->second;
}

template <typename T>
Buffer buffer_of(const std::vector<T>& values) {
  Buffer buffer(test::device(), values.size() * sizeof(T));
  buffer.write(values);
  return buffer;
}

TEST(ControlFlowShapes, OpenMMsCcmaProductWithAndWithoutConstraints) {
  for (int constraints : {0, 5}) {
    // Column lists of up to three entries per constraint, ended by `constraints`.
    const int rows = 4;
    std::vector<int> column(size_t(rows * std::max(constraints, 1) + 1), constraints);
    std::vector<float> value(column.size(), 0.0f), delta1(size_t(std::max(constraints, 1)));
    for (int c = 0; c < constraints; ++c) {
      delta1[size_t(c)] = float(c + 1);
      for (int i = 0; i < c % 3 + 1; ++i) {
        column[size_t(c + i * constraints)] = (c + i) % constraints;
        value[size_t(c + i * constraints)] = 0.5f * float(i + 1);
      }
    }
    Program& p = program(kCcma, "#define NUM_CCMA_CONSTRAINTS " + std::to_string(constraints) + "\n");
    Buffer d1 = buffer_of(delta1), d2 = buffer_of(std::vector<float>(delta1.size(), -1.0f)),
           col = buffer_of(column), val = buffer_of(value), conv = buffer_of(std::vector<int>{0, 0});
    Kernel k = p.kernel("multiplyByCCMAConstraintMatrixKernel");
    k.set_arg("delta1", d1);
    k.set_arg("delta2", d2);
    k.set_arg("constraintMatrixColumn", col);
    k.set_arg("constraintMatrixValue", val);
    k.set_arg("converged", conv);
    k.set_arg("iteration", 1);
    test::device().run(k, NDRange::make({64}, {32}));
    std::vector<float> want(delta1.size(), -1.0f);
    for (int c = 0; c < constraints; ++c) {
      float sum = 0;
      for (int i = 0;; ++i) {
        const int e = c + i * constraints, column_of = column[size_t(e)];
        if (column_of >= constraints) break;
        sum += delta1[size_t(column_of)] * value[size_t(e)];
      }
      want[size_t(c)] = sum;
    }
    EXPECT_EQ(d2.read<float>(want.size()), want) << constraints << " constraints";
  }
}

TEST(ControlFlowShapes, AnEndlessLoopThatIsNeverEntered) {
  Program& p = program(kShapes, "");
  std::vector<int> in(32);
  for (int i = 0; i < 32; ++i) in[size_t(i)] = i * 3 + 1;
  Buffer input = buffer_of(in), out(test::device(), 32 * 4);
  Kernel k = p.kernel("endless_unless");
  k.set_arg("in", input);
  k.set_arg("out", out);
  test::device().run(k, NDRange::make({32}, {32}));
  std::vector<int> want(32);
  for (int i = 0; i < 32; ++i) want[size_t(i)] = in[size_t(i)] * 2;
  EXPECT_EQ(out.read<int>(32), want);
}

TEST(ControlFlowShapes, ConsecutiveLoopsWhereOneLeavesIntoTheNextsHeader) {
  Program& p = program(kShapes, "");
  std::vector<int> in(128);
  for (int i = 0; i < 128; ++i) in[size_t(i)] = (i * 37 + 11) % 23 - 5;
  for (int n : {0, 7, 100}) {
    Buffer input = buffer_of(in), out(test::device(), 4);
    Kernel k = p.kernel("consecutive_loops");
    k.set_arg("out", out);
    k.set_arg("in", input);
    k.set_arg("n", n);
    test::device().run(k, NDRange::make({1}, {1}));
    int acc = 0;
    for (int t = 0; t < 100; t++) acc += in[size_t(t)] * t;
    for (int s = 0; s < 100; s++) acc ^= in[size_t((s + acc) & 63)];
    int m = 0, sum = 0;
    for (int t = 0; t < n; t++) {
      sum += in[size_t(t)] * t;
      if (sum > 1000) break;
    }
    for (int s = 0; s < 50; s++) m += in[size_t((s + sum) & 63)];
    EXPECT_EQ(out.read<int>(1)[0], acc + m + sum) << "n " << n;
  }
}

TEST(ControlFlowShapes, LoopsLeftFromSeveralPlaces) {
  Program& p = program(kShapes, "");
  for (int stop : {8, 3, 0}) {  // the round whose input is negative (8: none)
    std::vector<int> in(8);
    for (int i = 0; i < 8; ++i) in[size_t(i)] = i == stop ? -1 : i + 1;
    const int n = 5, items = 64;
    Buffer input = buffer_of(in), out(test::device(), items * 4);
    Kernel k = p.kernel("several_exits");
    k.set_arg("in", input);
    k.set_arg("out", out);
    k.set_arg("n", n);
    test::device().run(k, NDRange::make({uint64_t(items)}, {32}));
    std::vector<int> want(items);
    for (int g = 0; g < items; ++g) {
      int acc = 0;
      bool returned = false;
      for (int round = 0; round < 8 && !returned; ++round) {
        if (in[size_t(round)] < 0) {
          want[size_t(g)] = acc + 1000;
          returned = true;
          break;
        }
        bool next = false;
        for (int i = 0; i < n && !next; ++i)
          for (int j = 0; j < n; ++j) {
            if ((i * n + j + g) % 7 == 6) { next = true; break; }
            if ((j + g) % 3 == 2) continue;
            acc += in[size_t((i + j + round) % 8)];
          }
      }
      if (!returned) want[size_t(g)] = acc;
    }
    EXPECT_EQ(out.read<int>(items), want) << "stop " << stop;
  }
}

}  // namespace
}  // namespace vkcl
