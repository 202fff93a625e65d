// vkcl-reduce-example <reduce.spv> [n] [local]
//
// Runs shaders/examples/reduce.cl (compiled by clc) over n floats with the
// given work-group size, sums the partial sums on the host and compares with
// a sum computed on the host. The global size is n itself, so when local does
// not divide n the last work-group is smaller (a non-uniform ND-range).
// Exit status: 0 on a match, 1 on a mismatch, 2 on an error.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "vkcl/host.h"

namespace {

uint64_t parse_count(const char* text, const char* what) {
  char* end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 0);
  if (!*text || *end || value == 0) throw vkcl::Error(std::string(what) + " must be a positive integer, not '" + text + "'");
  return value;
}

int run(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: %s <reduce.spv> [n] [local]\n  defaults: n = 1048576, local = 256; VKCL_DEVICE picks the device\n",
                 argv[0]);
    return 2;
  }
  const uint64_t n = argc > 2 ? parse_count(argv[2], "n") : 1u << 20;
  const uint64_t local = argc > 3 ? parse_count(argv[3], "local") : 256;
  if (n > UINT32_MAX) throw vkcl::Error("n must fit in 32 bits (the kernel's n is a uint)");

  vkcl::Device device = vkcl::Device::create();
  std::printf("device: %s\n", device.describe().c_str());
  vkcl::Program program(device, std::filesystem::path(argv[1]));
  vkcl::Kernel kernel = program.kernel("reduce");

  // Small integers stored as floats: every partial sum and the total are
  // exact in float (below 2^24), whatever order the tree adds them in.
  std::vector<float> input(n);
  for (uint64_t i = 0; i < n; ++i) input[i] = static_cast<float>((i * 7 + 3) % 8);
  const uint64_t groups = (n + local - 1) / local;
  vkcl::Buffer in(device, n * sizeof(float));
  vkcl::Buffer partial(device, groups * sizeof(float));
  in.write(input);

  kernel.set_arg("input", in);
  kernel.set_arg("partial_sums", partial);
  kernel.set_local_arg("scratch", local * sizeof(float));
  kernel.set_arg("n", static_cast<uint32_t>(n));
  device.run(kernel, vkcl::NDRange::make({n}, {local}));

  double gpu_sum = 0, host_sum = 0;
  for (float p : partial.read<float>(groups)) gpu_sum += p;
  for (float v : input) host_sum += v;
  const bool match = gpu_sum == host_sum;
  std::printf("n: %" PRIu64 "\nlocal size: %" PRIu64 " (%" PRIu64 " work-group%s%s)\n", n, local, groups, groups == 1 ? "" : "s",
              n % local ? ", the last one smaller" : "");
  std::printf("gpu sum: %.1f\nhost sum: %.1f\n%s\n", gpu_sum, host_sum, match ? "match" : "MISMATCH");
  return match ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkcl-reduce-example: %s\n", e.what());
    return 2;
  }
}
