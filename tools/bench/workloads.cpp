#include "workloads.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace vkcl::bench {
namespace {

constexpr uint32_t kWG = 256, kTile = 16, kBins = 256;

// The same pseudo-random numbers everywhere: integers in [0, range).
std::vector<uint32_t> random_uints(size_t count, uint32_t range, uint64_t seed) {
  std::vector<uint32_t> values(count);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (uint32_t& v : values) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    v = static_cast<uint32_t>(state >> 32) % range;
  }
  return values;
}

std::string mismatch(const char* buffer, size_t index, double got, double expected) {
  char text[160];
  std::snprintf(text, sizeof text, "%s[%zu] = %.9g, expected %.9g", buffer, index, got, expected);
  return text;
}

std::string count_text(uint64_t n, const char* what) {
  char text[64];
  if (n % (1u << 20) == 0) std::snprintf(text, sizeof text, "%" PRIu64 "M %s", n >> 20, what);
  else if (n % 1024 == 0) std::snprintf(text, sizeof text, "%" PRIu64 "K %s", n >> 10, what);
  else std::snprintf(text, sizeof text, "%" PRIu64 " %s", n, what);
  return text;
}

uint32_t pick(Size size, uint32_t small, uint32_t medium, uint32_t large) {
  return size == Size::Small ? small : size == Size::Medium ? medium : large;
}

Case reduce(Size size) {
  const uint32_t n = pick(size, 1u << 16, 1u << 22, 1u << 26), groups = n / kWG;
  std::vector<float> input(n);
  const std::vector<uint32_t> r = random_uints(n, 16, 1);
  std::transform(r.begin(), r.end(), input.begin(), [](uint32_t v) { return float(v); });
  Case c{count_text(n, "floats"), {{"input", n * 4, to_bytes(input)}, {"partial_sums", groups * 4, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::u32(n)}, 1, {n, 1, 1}, {kWG, 1, 1}, {}};
  c.verify = [input = std::move(input), groups](const std::vector<std::vector<std::byte>>& out) -> std::string {
    std::span<const float> sums = as<float>(out[1]);
    for (uint32_t g = 0; g < groups; ++g) {
      float expected = 0;  // integers below 2^24: exact in any order
      for (uint32_t i = 0; i < kWG; ++i) expected += input[g * kWG + i];
      if (sums[g] != expected) return mismatch("partial_sums", g, sums[g], expected);
    }
    return "";
  };
  return c;
}

Case scan(Size size) {
  const uint32_t n = pick(size, 1u << 16, 1u << 22, 1u << 26);
  std::vector<uint32_t> input = random_uints(n, 16, 2);
  Case c{count_text(n, "uints"), {{"input", n * 4, to_bytes(input)}, {"output", n * 4, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::u32(n)}, 1, {n, 1, 1}, {kWG, 1, 1}, {}};
  c.verify = [input = std::move(input), n](const std::vector<std::vector<std::byte>>& out) -> std::string {
    std::span<const uint32_t> sums = as<uint32_t>(out[1]);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) {
      sum = (i % kWG == 0 ? 0 : sum) + input[i];
      if (sums[i] != sum) return mismatch("output", i, sums[i], sum);
    }
    return "";
  };
  return c;
}

Case transpose(Size size) {
  const uint32_t width = pick(size, 256, 2048, 8192), height = pick(size, 128, 2048, 8192);
  std::vector<float> input(size_t(width) * height);
  for (size_t i = 0; i < input.size(); ++i) input[i] = float(i % 1000003);
  Case c{std::to_string(height) + "x" + std::to_string(width) + " floats",
         {{"input", input.size() * 4, to_bytes(input)}, {"output", input.size() * 4, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::u32(width), Arg::u32(height)}, 2, {width, height, 1}, {kTile, kTile, 1}, {}};
  c.verify = [input = std::move(input), width, height](const std::vector<std::vector<std::byte>>& out) -> std::string {
    std::span<const float> t = as<float>(out[1]);
    for (size_t y = 0; y < height; ++y)
      for (size_t x = 0; x < width; ++x)
        if (t[x * height + y] != input[y * width + x]) return mismatch("output", x * height + y, t[x * height + y], input[y * width + x]);
    return "";
  };
  return c;
}

Case histogram(Size size) {
  const uint32_t n = pick(size, 1u << 16, 1u << 22, 1u << 26), per_item = 16;
  const uint32_t groups = (n + kWG * per_item - 1) / (kWG * per_item);
  std::vector<uint32_t> input = random_uints(n, 1u << 30, 3);
  Case c{count_text(n, "uints"), {{"input", n * 4, to_bytes(input)}, {"bins", kBins * 4, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::u32(n), Arg::u32(per_item)}, 1, {groups * kWG, 1, 1}, {kWG, 1, 1}, {}};
  c.verify = [input = std::move(input)](const std::vector<std::vector<std::byte>>& out) -> std::string {
    std::vector<uint32_t> expected(kBins);
    for (uint32_t v : input) ++expected[v & (kBins - 1)];
    std::span<const uint32_t> bins = as<uint32_t>(out[1]);
    for (uint32_t b = 0; b < kBins; ++b)
      if (bins[b] != expected[b]) return mismatch("bins", b, bins[b], expected[b]);
    return "";
  };
  return c;
}

Case sgemm(Size size) {
  const uint32_t n = pick(size, 64, 512, 4096);
  // Integers in [-2, 2]: every product and partial sum is exact in float, so
  // any order of summation and any contraction give the same C.
  std::vector<float> a(size_t(n) * n), b(size_t(n) * n);
  const std::vector<uint32_t> ra = random_uints(a.size(), 5, 4), rb = random_uints(b.size(), 5, 5);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(ra[i]) - 2), b[i] = float(int(rb[i]) - 2);
  Case c{std::to_string(n) + "^2 floats",
         {{"a", a.size() * 4, to_bytes(a)}, {"b", b.size() * 4, to_bytes(b)}, {"c", a.size() * 4, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::buf(2), Arg::u32(n)}, 2, {n, n, 1}, {kTile, kTile, 1}, {}};
  c.verify = [a = std::move(a), b = std::move(b), n](const std::vector<std::vector<std::byte>>& out) -> std::string {
    std::span<const float> product = as<float>(out[2]);
    // Every element when small, else 4096 of them, spread over C.
    const size_t count = size_t(n) * n, checks = std::min<size_t>(count, 4096);
    const std::vector<uint32_t> picks = random_uints(checks, uint32_t(count), 6);
    for (size_t k = 0; k < checks; ++k) {
      const size_t i = checks == count ? k : picks[k], row = i / n, col = i % n;
      float expected = 0;
      for (size_t j = 0; j < n; ++j) expected += a[row * n + j] * b[j * n + col];
      if (product[i] != expected) return mismatch("c", i, product[i], expected);
    }
    return "";
  };
  return c;
}

Case barrier_chain(Size size) {
  const uint32_t groups = pick(size, 4, 64, 4096), steps = pick(size, 64, 1024, 8192), n = groups * kWG;
  std::vector<uint32_t> input = random_uints(n, 1u << 20, 7);
  Case c{std::to_string(groups) + " groups x " + std::to_string(steps) + " steps",
         {{"input", n * 4, to_bytes(input)}, {"output", n * 4, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::u32(steps)}, 1, {n, 1, 1}, {kWG, 1, 1}, {}};
  c.verify = [input = std::move(input), n, steps](const std::vector<std::vector<std::byte>>& out) -> std::string {
    std::span<const uint32_t> values = as<uint32_t>(out[1]);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t group = i / kWG * kWG, expected = input[group + (i - group + steps) % kWG] + steps;
      if (values[i] != expected) return mismatch("output", i, values[i], expected);
    }
    return "";
  };
  return c;
}

Case sub_group_chain(Size size) {
  const uint32_t groups = pick(size, 4, 64, 4096), steps = pick(size, 64, 1024, 8192), n = groups * kWG;
  Case c{std::to_string(groups) + " groups x " + std::to_string(steps) + " steps",
         {{"output", n * 4, {}}, {"sub_group_size", 4, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::u32(steps)}, 1, {n, 1, 1}, {kWG, 1, 1}, {}};
  c.verify = [n, steps](const std::vector<std::vector<std::byte>>& out) -> std::string {
    const uint32_t size = as<uint32_t>(out[1])[0];
    if (size == 0 || kWG % size != 0) return "sub-group size " + std::to_string(size) + " does not divide 256";
    std::span<const uint32_t> values = as<uint32_t>(out[0]);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t first = i / size * size, expected = first + (i - first + steps) % size + steps;
      if (values[i] != expected) return mismatch("output", i, values[i], expected);
    }
    return "";
  };
  return c;
}

Case message_passing(Size size) {
  const uint32_t groups = pick(size, 4, 32, 2048), iterations = pick(size, 16, 256, 1024), n = groups * kWG;
  Case c{std::to_string(groups) + " groups x " + std::to_string(iterations) + " rounds",
         {{"data", n * 8, {}}, {"flags", n * 4, {}}, {"output", n * 8, {}}},
         {Arg::buf(0), Arg::buf(1), Arg::buf(2), Arg::u32(iterations)}, 1, {n, 1, 1}, {kWG, 1, 1}, {}};
  c.verify = [n, iterations](const std::vector<std::vector<std::byte>>& out) -> std::string {
    std::span<const uint32_t> values = as<uint32_t>(out[2]);
    for (uint32_t me = 0; me < n; ++me) {
      uint32_t expected = 0;
      for (uint32_t round = 0; round < iterations; ++round) expected += (me ^ 1u) * 7u + round;
      if (values[2 * me + 1] != 0) return "work-item " + std::to_string(me) + " missed " + std::to_string(values[2 * me + 1]) + " flags";
      if (values[2 * me] != expected) return mismatch("output", 2 * me, values[2 * me], expected);
    }
    return "";
  };
  return c;
}

}  // namespace

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> all = {
      {"reduce", false, reduce},
      {"scan", false, scan},
      {"transpose", false, transpose},
      {"histogram", false, histogram},
      {"sgemm", false, sgemm},
      {"barrier_chain", false, barrier_chain},
      {"sub_group_chain", true, sub_group_chain},
      {"message_passing", false, message_passing},
  };
  return all;
}

}  // namespace vkcl::bench
