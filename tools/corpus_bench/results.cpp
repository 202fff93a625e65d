#include "results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/report_common.h"

namespace vkcl::corpus_bench {

double KernelResult::ratio(size_t platform) const {
  if (!vkcl_timing || platform >= platforms.size()) return 0;
  const PlatformResult& p = platforms[platform];
  if (p.status != "ok" || !p.timing || vkcl_timing->median_ms <= 0) return 0;
  return p.timing->median_ms / vkcl_timing->median_ms;
}

std::string RatioSummary::bin_label(size_t bin) {
  if (bin == 0) return "< 0.5";
  if (bin == kBins - 1) return ">= 2.0";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f - %.1f", 0.4 + 0.1 * double(bin), 0.5 + 0.1 * double(bin));
  return text;
}

namespace {

size_t bin_of(double ratio) {
  if (ratio < 0.5) return 0;
  if (ratio >= 2.0) return RatioSummary::kBins - 1;
  // 0.5 .. 2.0 in steps of 0.1; the small bias keeps 0.7 in "0.7 - 0.8" despite rounding.
  return std::min<size_t>(RatioSummary::kBins - 2, 1 + size_t((ratio - 0.5) * 10 + 1e-9));
}

}  // namespace

RatioSummary summarize(const Run& run, size_t platform) {
  RatioSummary summary;
  std::vector<double> all, above;
  std::vector<size_t> timed;
  for (size_t k = 0; k < run.kernels.size(); ++k) {
    const double ratio = run.kernels[k].ratio(platform);
    if (ratio <= 0) continue;
    timed.push_back(k);
    all.push_back(ratio);
    summary.histogram_all[bin_of(ratio)]++;
    if (run.kernels[k].platforms[platform].timing->median_ms > run.threshold_ms) {
      above.push_back(ratio);
      summary.histogram_above[bin_of(ratio)]++;
      summary.below_target += ratio < 0.8;
    }
  }
  summary.timed = int(all.size());
  summary.above_threshold = int(above.size());
  summary.geomean_all = bench::geomean(all);
  summary.geomean_above = bench::geomean(above);
  std::stable_sort(timed.begin(), timed.end(),
                   [&](size_t a, size_t b) { return run.kernels[a].ratio(platform) < run.kernels[b].ratio(platform); });
  timed.resize(std::min<size_t>(timed.size(), 10));
  summary.worst = timed;
  return summary;
}

}  // namespace vkcl::corpus_bench
