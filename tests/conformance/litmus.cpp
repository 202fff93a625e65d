#include "litmus.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace vkcl::conformance::litmus {
namespace {

// Permutation factors: primes, so (i * p) % n is a permutation whenever p does not divide n.
constexpr uint32_t kFirstPrimes[] = {109, 113, 127, 131, 137, 139, 149, 151, 157, 163};
constexpr uint32_t kSecondPrimes[] = {419, 421, 431, 433, 439, 443, 449, 457, 461, 463};

template <size_t N>
uint32_t coprime_prime(const uint32_t (&primes)[N], uint32_t n, std::mt19937_64& rng) {
  for (int tries = 0; tries < 64; ++tries) {
    const uint32_t p = primes[rng() % N];
    if (n % p != 0) return p;
  }
  for (uint32_t p : primes)
    if (n % p != 0) return p;
  throw std::logic_error("no permutation factor for " + std::to_string(n));
}

bool chance(std::mt19937_64& rng, uint32_t pct) { return rng() % 100 < pct; }

// One dispatch's params: header, shuffled work-group ids, scratch locations.
void draw(std::vector<uint32_t>& p, Placement placement, const LitmusOptions& o, std::mt19937_64& rng) {
  const uint32_t groups = o.max_groups, size = o.local_size;
  const uint32_t testing = o.testing_groups + uint32_t(rng() % (groups - o.testing_groups + 1));
  std::fill(p.begin(), p.end(), 0u);
  p[kTestingGroups] = testing;
  p[kGroups] = groups;
  p[kLocalSize] = size;
  p[kStride] = o.stride;
  p[kPermuteFirst] = placement == Placement::Global && o.permute_first ? o.permute_first % size
                                                                       : coprime_prime(kFirstPrimes, size, rng);
  p[kPermuteSecond] = coprime_prime(kSecondPrimes, placement == Placement::Global ? testing * size : size, rng);
  p[kStripeRotation] = uint32_t(rng() % (testing - 1));
  p[kPreBarrier] = chance(rng, o.barrier_pct) ? (o.staggered_barrier ? 2 : 1) : 0;
  p[kSpinPolls] = o.spin_polls;
  p[kPreStress] = chance(rng, o.pre_stress_pct) ? o.pre_stress_iterations : 0;
  p[kPreStressPattern] = uint32_t(rng() % 4);
  p[kMemStress] = chance(rng, o.stress_pct) ? o.stress_iterations : 0;
  p[kMemStressPattern] = uint32_t(rng() % 4);
  p[kGap] = o.gap;

  uint32_t* shuffled = p.data() + kHeader;
  std::iota(shuffled, shuffled + groups, 0u);
  if (chance(rng, o.shuffle_pct)) std::shuffle(shuffled, shuffled + groups, rng);

  // Stress targets: stress_lines distinct lines of the scratchpad, a random
  // word in each; work-groups spread over them round-robin or in chunks.
  const uint32_t lines = o.scratch_words / o.stress_line_words;
  std::vector<uint32_t> all_lines(lines);
  std::iota(all_lines.begin(), all_lines.end(), 0u);
  std::shuffle(all_lines.begin(), all_lines.end(), rng);
  std::vector<uint32_t> targets(o.stress_lines);
  for (uint32_t t = 0; t < o.stress_lines; ++t)
    targets[t] = all_lines[t] * o.stress_line_words + uint32_t(rng() % (o.stress_line_words - 1));
  const bool round_robin = chance(rng, 50);
  const uint32_t chunk = (groups + o.stress_lines - 1) / o.stress_lines;
  uint32_t* scratch = shuffled + groups;
  for (uint32_t g = 0; g < groups; ++g) scratch[g] = targets[round_robin ? g % o.stress_lines : g / chunk];
}

}  // namespace

const char* placement_define(Placement placement) {
  switch (placement) {
    case Placement::Global: return "LITMUS_GLOBAL";
    case Placement::GlobalWorkGroup: return "LITMUS_GLOBAL_WG";
    case Placement::Local: return "LITMUS_LOCAL";
  }
  return "";
}

Counts run(Program& program, Placement placement, const LitmusOptions& o, uint64_t seed, double seconds) {
  Device& dev = device();
  const uint32_t groups = o.max_groups, size = o.local_size;
  const uint64_t threads = uint64_t(groups) * size;
  if (threads > (1u << 20)) throw std::invalid_argument("litmus: more than 2^20 work-items per dispatch");
  const uint32_t slice = (kHeader + 2 * groups + 63) / 64 * 64;  // words of params per dispatch
  const uint32_t location_words = uint32_t(threads) * 2 * o.stride;

  Buffer results(dev, threads * 4 * sizeof(uint32_t)), params(dev, size_t(o.batch) * slice * sizeof(uint32_t));
  Buffer sync(dev, 16), scratchpad(dev, size_t(o.scratch_words) * sizeof(uint32_t)), counts(dev, 8 * sizeof(uint32_t));
  Buffer locations(dev, placement == Placement::Local ? 16 : size_t(location_words) * sizeof(uint32_t));
  for (Buffer* b : {&results, &sync, &scratchpad, &counts, &locations}) b->fill(std::byte{0});

  Kernel litmus = program.kernel("litmus"), classify = program.kernel("classify");
  for (Kernel* k : {&litmus, &classify})
    for (const KernelArg& arg : k->reflection().args) {
      if (arg.name == "locations") {
        if (arg.kind == ArgKind::LocalPointer) k->set_local_arg(arg.index, size_t(location_words / groups) * sizeof(uint32_t));
        else k->set_arg(arg.index, locations);
      } else if (arg.name == "results") k->set_arg(arg.index, results);
      else if (arg.name == "sync") k->set_arg(arg.index, sync);
      else if (arg.name == "scratchpad") k->set_arg(arg.index, scratchpad);
      else if (arg.name == "counts") k->set_arg(arg.index, counts);
    }
  const NDRange range = NDRange::make({threads}, {size});

  std::mt19937_64 rng(seed);
  std::vector<uint32_t> batch(size_t(o.batch) * slice), one(slice);
  Counts total;
  const auto start = std::chrono::steady_clock::now();
  const bool timestamps = dev.has_timestamps();
  auto done = [&] {
    return o.iterations ? total.dispatches >= o.iterations : total.instances >= o.instances;
  };
  while (!done()) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
      total.cut_short = true;
      break;
    }
    uint32_t n = o.batch;
    if (o.iterations) n = uint32_t(std::min<uint64_t>(n, o.iterations - total.dispatches));
    CommandList list(dev);
    for (uint32_t j = 0; j < n; ++j) {
      draw(one, placement, o, rng);
      std::copy(one.begin(), one.end(), batch.begin() + size_t(j) * slice);
      total.instances += uint64_t(one[kTestingGroups]) * size;
      if (!o.iterations && total.instances >= o.instances) n = j + 1;
    }
    params.write(std::vector<uint32_t>(batch.begin(), batch.begin() + size_t(n) * slice));
    for (uint32_t j = 0; j < n; ++j) {
      litmus.set_arg("params", params, size_t(j) * slice * sizeof(uint32_t));
      classify.set_arg("params", params, size_t(j) * slice * sizeof(uint32_t));
      list.enqueue(litmus, range);
      list.enqueue(classify, range);
    }
    Event event = dev.submit(list, {.timestamps = timestamps});
    event.wait();
    if (timestamps)
      for (const KernelTime& t : event.kernel_times()) total.gpu_seconds += std::chrono::duration<double>(t.duration()).count();
    const std::vector<uint32_t> c = counts.read<uint32_t>(kOutcomes + 1);
    for (uint32_t i = 0; i <= kOutcomes; ++i) total.outcomes[i] += c[i];
    counts.fill(std::byte{0});
    total.dispatches += n;
  }
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

}  // namespace vkcl::conformance::litmus
