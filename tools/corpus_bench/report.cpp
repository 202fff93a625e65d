#include "report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bench/report_common.h"
#include "side.h"

namespace vkcl::corpus_bench {
namespace {

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string ms(const std::optional<corpus::KernelTiming>& t) { return t ? format("%.4f", t->median_ms) : "-"; }
std::string ratio_text(double r) { return r > 0 ? format("%.2fx", r) : "-"; }

std::string left(std::string text, size_t width) { return text.size() >= width ? text + " " : text.append(width - text.size(), ' '); }
std::string right(const std::string& text, size_t width) {
  return text.size() >= width ? " " + text : std::string(width - text.size(), ' ') + text;
}

// The kernel's status in one word or so: "ok", "skipped", vkcl's failure, or
// the first platform that did not agree.
std::string status_of(const KernelResult& k, const Run& run) {
  if (!k.skipped.empty()) return "skipped";
  if (k.vkcl_status != "ok") return "vkcl " + k.vkcl_status;
  for (size_t p = 0; p < k.platforms.size(); ++p)
    if (k.platforms[p].status != "ok") return run.platforms[p].name + " " + k.platforms[p].status;
  return "ok";
}

std::string detail_of(const KernelResult& k) {
  if (!k.skipped.empty()) return k.skipped;
  if (k.vkcl_status != "ok") return corpus::first_line(k.vkcl_detail);
  for (const PlatformResult& p : k.platforms)
    if (p.status != "ok") return corpus::first_line(p.detail);
  return "";
}

// Quoted when it holds a comma or a quote (doubled inside); newlines become spaces.
std::string csv_field(std::string_view text) {
  std::string field;
  bool quoted = false;
  for (char c : text) {
    quoted |= c == ',' || c == '"';
    field += c == '\n' ? ' ' : c;
    if (c == '"') field += '"';
  }
  return quoted ? '"' + field + '"' : field;
}

void format_summary(std::ostringstream& out, const Run& run, size_t p) {
  const RatioSummary s = summarize(run, p);
  const std::string name = run.platforms[p].name;
  const std::string threshold = format("%g", run.threshold_ms * 1000) + " us";
  out << "\nvkcl against " << name << " (" << name << " time / vkcl time; above 1.00x vkcl is faster)\n";
  if (!run.platforms[p].unavailable.empty()) out << "  unavailable: " << run.platforms[p].unavailable << '\n';
  out << "  timed and verified: " << s.timed << " kernels; " << s.above_threshold << " with " << name << " time over "
      << threshold << '\n';
  out << "  geomean over " << threshold << ": " << ratio_text(s.geomean_above) << " (" << s.above_threshold
      << " kernels); over all timed: " << ratio_text(s.geomean_all) << " (" << s.timed << ")\n";
  out << "  target (geomean >= 1.00x, none below 0.80x, over " << threshold << "): "
      << (s.above_threshold > 0 && s.geomean_above >= 1.0 && s.below_target == 0 ? "met" : "not met") << "; "
      << s.below_target << " below 0.80x\n";
  out << "  worst " << s.worst.size() << ":\n";
  for (size_t k : s.worst) {
    const KernelResult& kernel = run.kernels[k];
    const bool counts = kernel.platforms[p].timing->median_ms > run.threshold_ms;
    out << "    " << left(kernel.id, 34) << right(ratio_text(kernel.ratio(p)), 8) << "   vkcl " << right(ms(kernel.vkcl_timing), 10)
        << " ms  " << name << ' ' << right(ms(kernel.platforms[p].timing), 10) << " ms" << (counts ? "" : "  (under the threshold)")
        << '\n';
  }
  out << "  histogram of ratios   all  over " << threshold << '\n';
  const int tallest = std::max(1, *std::max_element(s.histogram_all.begin(), s.histogram_all.end()));
  const int bar_unit = (tallest + 59) / 60;  // kernels per '#': bars of at most 60
  for (size_t b = 0; b < RatioSummary::kBins; ++b)
    out << "    " << left(RatioSummary::bin_label(b), 16) << right(std::to_string(s.histogram_all[b]), 5)
        << right(std::to_string(s.histogram_above[b]), 8) << "  "
        << std::string(size_t((s.histogram_all[b] + bar_unit - 1) / bar_unit), '#') << '\n';
  if (bar_unit > 1) out << "    (# = " << bar_unit << " kernels)\n";
}

}  // namespace

std::string format_report(const Run& run) {
  std::ostringstream out;
  for (const std::string& line : run.header) out << line << '\n';
  for (size_t p = 0; p < run.platforms.size(); ++p) {
    const Platform& platform = run.platforms[p];
    const bool host_clock = std::any_of(run.kernels.begin(), run.kernels.end(), [&](const KernelResult& k) {
      return p < k.platforms.size() && k.platforms[p].timing && k.platforms[p].timing->host_clock;
    });
    if (platform.description.empty()) out << platform.name << ": " << platform.unavailable << '\n';
    else
      out << platform.name << ": " << platform.description
          << (host_clock ? "; timed on the host, a batch of runs with their restoring copies per run (its events carry no times)" : "; event profiling") << '\n';
  }
  out << "\nKernel time, median ms, and vkcl's speed against each platform (its time / vkcl's)\n\n";
  std::string head = left("kernel", 36) + right("vkcl ms", 11);
  for (const Platform& p : run.platforms) head += right(p.name + " ms", 13);
  for (const Platform& p : run.platforms) head += right("vs " + p.name, 11);
  head += "  status";
  out << head << '\n' << std::string(head.size() + 10, '-') << '\n';
  for (const KernelResult& k : run.kernels) {
    std::string line = left(k.id, 36) + right(ms(k.vkcl_timing), 11);
    for (const PlatformResult& p : k.platforms) line += right(ms(p.timing), 13);
    for (size_t p = 0; p < k.platforms.size(); ++p) line += right(ratio_text(k.ratio(p)), 11);
    if (k.platforms.size() < run.platforms.size()) line += std::string(24 * (run.platforms.size() - k.platforms.size()), ' ');
    std::string detail = detail_of(k);
    if (detail.size() > 140) detail = detail.substr(0, 137) + "...";
    line += "  " + status_of(k, run) + (k.listed ? " (listed)" : "") + (detail.empty() ? "" : ": " + detail);
    out << line << '\n';
  }
  for (size_t p = 0; p < run.platforms.size(); ++p) format_summary(out, run, p);
  return out.str();
}

void write_csv(const Run& run, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  out << "kernel,status,vkcl_median_ms,vkcl_min_ms,vkcl_runs";
  for (const Platform& p : run.platforms)
    for (const char* column : {"_status", "_median_ms", "_min_ms", "_runs", "_clock", "_ratio"}) out << ',' << p.name << column;
  out << ",detail\n";
  auto times = [&](const std::optional<corpus::KernelTiming>& t) {
    if (t) out << ',' << t->median_ms << ',' << t->min_ms << ',' << t->runs;
    else out << ",,,";
  };
  for (const KernelResult& k : run.kernels) {
    out << k.id << ',' << csv_field(status_of(k, run));
    times(k.vkcl_timing);
    for (size_t p = 0; p < k.platforms.size(); ++p) {
      out << ',' << csv_field(k.platforms[p].status);
      times(k.platforms[p].timing);
      out << ',' << (k.platforms[p].timing ? (k.platforms[p].timing->host_clock ? "host" : "event") : "");
      const double r = k.ratio(p);
      out << ',';
      if (r > 0) out << r;
    }
    for (size_t p = k.platforms.size(); p < run.platforms.size(); ++p) out << ",,,,,,";
    out << ',' << csv_field(detail_of(k)) << '\n';
  }
}

std::string write_chart(const Run& run, const std::string& stem) {
  // One block per platform (gnuplot's index): rank, ratio, kernel.
  bool any = false;
  {
    std::ofstream dat(stem + ".dat");
    for (size_t p = 0; p < run.platforms.size(); ++p) {
      std::vector<std::pair<double, std::string>> ratios;
      for (const KernelResult& k : run.kernels)
        if (k.ratio(p) > 0) ratios.emplace_back(k.ratio(p), k.id);
      std::sort(ratios.begin(), ratios.end());
      dat << "# vkcl vs " << run.platforms[p].name << ": rank, ratio, kernel\n";
      for (size_t i = 0; i < ratios.size(); ++i) dat << i + 1 << ' ' << ratios[i].first << ' ' << ratios[i].second << '\n';
      if (ratios.empty()) dat << "0 1 none\n";  // keeps the block, so index p stays platform p
      dat << "\n\n";
      any |= !ratios.empty();
    }
  }
  if (!any) return "chart: no ratios to draw";
  const std::filesystem::path stem_path(stem);
  const std::string name = stem_path.filename().string();
  {
    std::ofstream gp(stem + ".gp");
    bench::write_gnuplot_preamble(gp, name,
                                  "vkcl's speed on each corpus kernel (OpenCL time / vkcl time, sorted; above 1: vkcl faster)",
                                  run.header.size() > 2 ? run.header[2] : "");
    gp << "set logscale y 2\nset grid ytics\nset key top left noenhanced\n"
       << "set xlabel 'kernels, sorted by ratio'\nset ylabel 'speed ratio (log scale)'\n"
       << "set arrow from graph 0, first 1.0 to graph 1, first 1.0 nohead lc rgb 'black' dt 2\n"
       << "set arrow from graph 0, first 0.8 to graph 1, first 0.8 nohead lc rgb 'red' dt 2\n"
       << "plot ";
    for (size_t p = 0; p < run.platforms.size(); ++p)
      gp << (p ? ", " : "") << "'" << name << ".dat' index " << p << " using 1:2 with linespoints pt 7 ps 0.6 title 'vs "
         << run.platforms[p].name << "'";
    gp << '\n';
  }
  return bench::run_gnuplot(stem);
}

}  // namespace vkcl::corpus_bench
