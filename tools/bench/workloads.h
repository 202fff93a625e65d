// The benchmark workloads of issue 8: each one is a kernel in shaders/bench/
// (with a GLSL twin in shaders/bench/glsl/), and for each size its buffers,
// arguments, ND-range and a host check of the results.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace vkcl::bench {

// small: CI and a quick look (seconds on lavapipe); medium: CPU devices
// (lavapipe, PoCL, rusticl); large: a GPU kept busy (64M elements, 4096^2 SGEMM).
enum class Size { Small, Medium, Large };

struct BufferSpec {
  std::string name;
  size_t bytes = 0;
  // An input's contents, written once; empty for an output, which every path
  // zeroes before each run (not timed).
  std::vector<std::byte> input;
  bool output() const { return input.empty(); }
};

// One kernel argument, in order: a buffer (index into Case::buffers) or a
// 32-bit unsigned scalar. Every workload keeps its sizes in scalars, never
// in -D options, so a module recorded at one size replays at every size.
struct Arg {
  int buffer = -1;
  uint32_t value = 0;
  static Arg buf(int index) { return {index, 0}; }
  static Arg u32(uint32_t value) { return {-1, value}; }
};

struct Case {
  std::string size_text;  // "64M floats", for the table
  std::vector<BufferSpec> buffers;
  std::vector<Arg> args;
  uint32_t dims = 1;
  std::array<uint64_t, 3> global{1, 1, 1}, local{1, 1, 1};
  // Given every buffer's contents after one run (in `buffers` order): empty
  // when the outputs are right, else what is wrong, in words.
  std::function<std::string(const std::vector<std::vector<std::byte>>& contents)> verify;
};

struct Workload {
  std::string name;  // shaders/bench/<name>.cl, shaders/bench/glsl/<name>.comp; also the kernel's name
  bool needs_sub_groups = false;  // built as OpenCL C 2.0 (cl_khr_subgroups); else OpenCL C 1.2
  std::function<Case(Size)> make;
};

const std::vector<Workload>& workloads();

template <typename T>
std::vector<std::byte> to_bytes(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}
template <typename T>
std::span<const T> as(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
}

}  // namespace vkcl::bench
