// A consumer of the installed vkcl::host: a device, a buffer written and read
// back, and, given a module compiled by the installed clc, a kernel run over
// a non-uniform range. Prints one line per step; exits non-zero on failure.
//
//   vkcl_consumer [add_one.spv]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "vkcl/host.h"

namespace {

int fail(const char* what, size_t index, uint32_t expected, uint32_t got) {
  std::fprintf(stderr, "vkcl_consumer: %s: word %zu expected %u, got %u\n", what, index, expected, got);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    vkcl::Device device = vkcl::Device::create();
    std::printf("device: %s\n", device.describe().c_str());

    constexpr size_t n = 1000;
    std::vector<uint32_t> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = uint32_t(i * 7 + 3);
    vkcl::Buffer buffer(device, n * sizeof(uint32_t));
    buffer.write(values);
    std::vector<uint32_t> back = buffer.read<uint32_t>(n);
    for (size_t i = 0; i < n; ++i)
      if (back[i] != values[i]) return fail("buffer round trip", i, values[i], back[i]);
    std::printf("buffer: %zu words written and read back\n", n);

    if (argc > 1) {
      vkcl::Program program(device, argv[1]);
      vkcl::Kernel kernel = program.kernel("add_one");
      kernel.set_arg("data", buffer);
      device.run(kernel, vkcl::NDRange::make({n}, {64}));  // 15 groups of 64 and one of 40
      back = buffer.read<uint32_t>(n);
      for (size_t i = 0; i < n; ++i)
        if (back[i] != values[i] + 1) return fail("add_one", i, values[i] + 1, back[i]);
      std::printf("kernel: add_one ran over %zu work-items\n", n);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkcl_consumer: %s\n", e.what());
    return 1;
  }
  return 0;
}
