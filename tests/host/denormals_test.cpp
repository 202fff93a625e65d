// Subnormal floats on the device. Where the device can preserve them
// (shaderDenormPreserveFloat32/64), a Program asks for it
// (host/preserve_denormals.h) and the results must be OpenCL's, bit for bit:
// this is the test that fails on the H100 if the runtime stops asking, as the
// NVIDIA driver flushes fp32 subnormals by default. lavapipe cannot preserve
// them, so there the kernels must still build and run (under the validation
// layer, which refuses a DenormPreserve mode the device lacks) and the
// comparisons are skipped. A device that withholds the feature, and a program
// built with -cl-denorms-are-zero, get the module as clc wrote it.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

// Arithmetic on and into subnormals, with operands from memory so that
// nothing folds at compile time, and builtins that see a subnormal argument.
constexpr const char* kFloatSource = R"(
kernel void subnormals(global const float* in, global float* out) {
  out[0] = in[0] * in[1];        // FLT_MIN * 0.5: a subnormal result
  out[1] = in[2] * in[3];        // 2^-140 * 2: a subnormal operand and result
  out[2] = logb(in[2]);          // -140, not -inf
  out[3] = (float)ilogb(in[2]);  // -140
  out[4] = nextafter(in[4], in[1]);  // the smallest subnormal above 0
  out[5] = in[2] - in[5];        // 2^-140 - 2^-141: both operands subnormal
}
)";
const std::vector<float> kFloatIn = {0x1p-126f, 0.5f, 0x1p-140f, 2.0f, 0.0f, 0x1p-141f};
const std::vector<float> kFloatExpected = {0x1p-127f, 0x1p-139f, -140.0f, -140.0f, 0x1p-149f, 0x1p-141f};

constexpr const char* kDoubleSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void subnormals(global const double* in, global double* out) {
  out[0] = in[0] * in[1];          // DBL_MIN * 0.5
  out[1] = in[2] * in[3];          // 2^-1040 * 2
  out[2] = logb(in[2]);            // -1040
  out[3] = nextafter(in[4], in[1]);  // the smallest subnormal above 0
}
)";
const std::vector<double> kDoubleIn = {0x1p-1022, 0.5, 0x1p-1040, 2.0, 0.0};
const std::vector<double> kDoubleExpected = {0x1p-1023, 0x1p-1039, -1040.0, 0x1p-1074};

template <typename T>
std::vector<T> run_subnormals(Device& device, const char* source, const std::vector<T>& in, size_t outputs,
                              CompileOptions options = {}) {
  Program program = build_program(device, source, "subnormals.cl", options);
  Kernel kernel = program.kernel("subnormals");
  Buffer input(device, in.size() * sizeof(T)), output(device, outputs * sizeof(T));
  input.write(in);
  output.fill(uint8_t(0x55));
  kernel.set_arg("in", input);
  kernel.set_arg("out", output);
  device.run(kernel, NDRange::make({1}, {1}));
  return output.read<T>(outputs);
}

template <typename T>
std::string bits(T value) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  char text[64];
  std::snprintf(text, sizeof text, "%a (0x%llx)", double(value), (unsigned long long)std::bit_cast<Bits>(value));
  return text;
}

template <typename T>
void expect_exactly(const std::vector<T>& got, const std::vector<T>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(bits(got[i]), bits(expected[i])) << "out[" << i << "]";
}

// What the device did, for the log of a run where nothing is asserted.
template <typename T>
std::string describe(const std::vector<T>& got) {
  std::string text;
  for (T v : got) text += " " + bits(v);
  return text;
}

TEST(Denormals, Float32SubnormalsArePreservedWhereTheDeviceCan) {
  Device& device = test::device();
  std::vector<float> got = run_subnormals(device, kFloatSource, kFloatIn, kFloatExpected.size());
  if (!device.features().denorm_preserve_float32)
    GTEST_SKIP() << device.name() << " cannot preserve fp32 subnormals (shaderDenormPreserveFloat32); it gave" << describe(got);
  expect_exactly(got, kFloatExpected);
}

TEST(Denormals, Float64SubnormalsArePreservedWhereTheDeviceCan) {
  Device& device = test::device();
  if (!device.features().shader_float64) GTEST_SKIP() << device.name() << " has no shaderFloat64";
  std::vector<double> got = run_subnormals(device, kDoubleSource, kDoubleIn, kDoubleExpected.size());
  if (!device.features().denorm_preserve_float64)
    GTEST_SKIP() << device.name() << " cannot preserve fp64 subnormals (shaderDenormPreserveFloat64); it gave" << describe(got);
  expect_exactly(got, kDoubleExpected);
}

// A lesser device simulated on the real one: the runtime must not declare a
// mode the device does not offer (the validation layer would report it).
TEST(Denormals, DeviceWithoutTheFeatureRunsTheModuleAsWritten) {
  DeviceOptions options;
  options.withheld_features.denorm_preserve_float16 = options.withheld_features.denorm_preserve_float32 =
      options.withheld_features.denorm_preserve_float64 = true;
  Device device = Device::create(options);
  EXPECT_FALSE(device.features().denorm_preserve_float16 || device.features().denorm_preserve_float32 ||
               device.features().denorm_preserve_float64);
  std::vector<float> got = run_subnormals(device, kFloatSource, kFloatIn, kFloatExpected.size());
  std::printf("%s without DenormPreserve gave%s\n", device.name().c_str(), describe(got).c_str());
  EXPECT_EQ(got[2] == -140.0f, got[3] == -140.0f) << "logb and ilogb disagree:" << describe(got);
}

// -cl-denorms-are-zero: recorded in the reflection, and the device is not
// asked to preserve (what it then does is its own choice).
TEST(Denormals, DenormsAreZeroIsRecordedAndRuns) {
  Device& device = test::device();
  CompileOptions options;
  options.denorms_are_zero = true;
  Program program = build_program(device, kFloatSource, "subnormals.cl", options);
  EXPECT_TRUE(program.reflection().denorms_are_zero);
  EXPECT_FALSE(build_program(device, kFloatSource, "subnormals.cl").reflection().denorms_are_zero);
  std::vector<float> got = run_subnormals(device, kFloatSource, kFloatIn, kFloatExpected.size(), options);
  std::printf("%s with -cl-denorms-are-zero gave%s\n", device.name().c_str(), describe(got).c_str());
}

}  // namespace
}  // namespace vkcl
