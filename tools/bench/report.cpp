#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "report_common.h"

namespace vkcl::bench {
namespace {

std::string fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Milliseconds with about four significant digits.
std::string ms_text(double ms) { return fixed(ms, ms >= 100 ? 1 : ms >= 10 ? 2 : ms >= 1 ? 3 : 4); }

std::string cell(const RunResult& r) { return r.ok() ? ms_text(median(r.samples)) : r.status; }

std::string ratio_text(double ratio) { return ratio > 0 ? fixed(ratio, 2) + "x" : "-"; }

std::string pad(const std::string& text, size_t width, bool right = true) {
  if (text.size() >= width) return text;
  return right ? std::string(width - text.size(), ' ') + text : text + std::string(width - text.size(), ' ');
}

std::string csv_field(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

double speed_ratio(const RunResult& vkcl, const RunResult& peer) {
  if (!vkcl.ok() || !peer.ok() || vkcl.samples.empty() || peer.samples.empty()) return 0;
  const double v = median(vkcl.samples);
  return v > 0 ? median(peer.samples) / v : 0;
}

std::string format_report(const Report& report) {
  std::ostringstream out;
  for (const std::string& line : report.header) out << line << '\n';
  const size_t paths = report.paths.size();

  // Kernel times, then vkcl's speed against each peer.
  if (!report.kernels.empty()) {
    out << "\nKernel time, median ms (GPU time; see the paths above), and vkcl's speed against each peer\n"
        << "(peer median / vkcl median: above 1.00x vkcl is faster; each round times every path once)\n";
    if (std::find(report.paths.begin(), report.paths.end(), "twin") != report.paths.end())
      out << "twin: the GLSL twin with descriptor-bound storage buffers, the target (vs twin at least 0.97x);\n"
          << "twin_bda: the twin in vkcl's ABI (buffer references in push constants, vkcl's runtime), for finding causes\n";
    out << '\n';
    std::string head = pad("workload", 16, false) + pad("size", 26, false);
    for (const std::string& p : report.paths) head += pad(p + " ms", 14);
    head += "  |";
    for (size_t p = 1; p < paths; ++p) head += pad("vs " + report.paths[p], 13);
    out << head << '\n' << std::string(head.size(), '-') << '\n';
    std::vector<std::vector<double>> ratios(paths);
    std::vector<std::string> footnotes;
    for (const WorkloadResults& k : report.kernels) {
      std::string line = pad(k.workload, 16, false) + pad(k.size_text, 26, false);
      for (size_t p = 0; p < paths; ++p) {
        line += pad(cell(k.by_path[p]), 14);
        if (!k.by_path[p].ok())
          footnotes.push_back(k.workload + ", " + report.paths[p] + ": " + k.by_path[p].status + ": " + first_line(k.by_path[p].detail));
      }
      line += "  |";
      for (size_t p = 1; p < paths; ++p) {
        const double r = speed_ratio(k.by_path[0], k.by_path[p]);
        if (r > 0) ratios[p].push_back(r);
        line += pad(ratio_text(r), 13);
      }
      out << line << '\n';
    }
    std::string line = pad("geomean", 16 + 26 + 14 * paths, false) + "  |";
    for (size_t p = 1; p < paths; ++p)
      line += pad(ratios[p].empty() ? "-" : ratio_text(geomean(ratios[p])) + " (" + std::to_string(ratios[p].size()) + ")", 13);
    out << line << '\n';
    for (const std::string& f : footnotes) out << "  " << f << '\n';
  }

  if (!report.dispatch.empty()) {
    out << "\nDispatch overhead: enqueue to done of an empty kernel over one work-item, host clock, us\n\n";
    out << pad("path", 44, false) << pad("median us", 12) << pad("min us", 12) << pad("runs", 8) << '\n';
    for (const DispatchResult& d : report.dispatch) {
      const std::string label = d.path + ": " + d.what;
      if (!d.result.ok()) {
        out << pad(label, 44, false) << "  " << d.result.status << ": " << first_line(d.result.detail) << '\n';
        continue;
      }
      out << pad(label, 44, false) << pad(fixed(median(d.result.samples), 1), 12)
          << pad(fixed(*std::min_element(d.result.samples.begin(), d.result.samples.end()), 1), 12)
          << pad(std::to_string(d.result.samples.size()), 8) << '\n';
    }
  }

  if (!report.launch.empty()) {
    out << "\nLaunch cost: " << report.launch_dispatches
        << " dispatches of a one-invocation kernel with 4 buffer arguments, all changed at every dispatch,\n"
        << "in one command buffer; us per dispatch, median (host clock: recording, and submit to fence; GPU: timestamps)\n\n";
    out << pad("method", 44, false) << pad("record us", 12) << pad("submit us", 12) << pad("GPU us", 12) << pad("runs", 8) << '\n';
    for (const LaunchCost& l : report.launch) {
      if (!l.record.ok()) {
        out << pad(l.method, 44, false) << "  " << l.record.status << ": " << first_line(l.record.detail) << '\n';
        continue;
      }
      out << pad(l.method, 44, false) << pad(fixed(median(l.record.samples), 3), 12) << pad(fixed(median(l.submit.samples), 3), 12)
          << pad(l.gpu.ok() ? fixed(median(l.gpu.samples), 3) : "-", 12) << pad(std::to_string(l.record.samples.size()), 8)
          << '\n';
    }
  }

  if (!report.compiles.empty()) {
    out << "\nCompile time, whole process, median ms: clc against clang -O2 + llvm-spirv (clc / bare: at most 1.30x is the target)\n\n";
    out << pad("workload", 18, false) << pad("clc ms", 12) << pad("bare ms", 12) << pad("clc / bare", 12) << '\n';
    std::vector<double> all;
    for (const CompileTiming& c : report.compiles) {
      const bool ok = c.clc.ok() && c.bare.ok();
      const double ratio = ok ? median(c.clc.samples) / median(c.bare.samples) : 0;
      if (ok) all.push_back(ratio);
      out << pad(c.workload, 18, false) << pad(c.clc.ok() ? fixed(median(c.clc.samples), 1) : c.clc.status, 12)
          << pad(c.bare.ok() ? fixed(median(c.bare.samples), 1) : c.bare.status, 12) << pad(ratio_text(ratio), 12) << '\n';
      if (!c.clc.ok()) out << "  clc: " << first_line(c.clc.detail) << '\n';
      if (!c.bare.ok()) out << "  bare: " << first_line(c.bare.detail) << '\n';
    }
    if (!all.empty()) out << pad("geomean", 42, false) << pad(ratio_text(geomean(all)), 12) << '\n';
  }
  if (!report.notes.empty()) {
    out << "\nNotes:\n";
    for (const std::string& n : report.notes) out << "  " << n << '\n';
  }
  return out.str();
}

void write_csv(const Report& report, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  out << "section,workload,size,path,status,median,min,max,runs,unit,detail\n";
  auto row = [&](const std::string& section, const std::string& workload, const std::string& size, const std::string& p,
                 const RunResult& r, const std::string& unit) {
    out << section << ',' << csv_field(workload) << ',' << csv_field(size) << ',' << csv_field(p) << ',' << csv_field(r.status);
    if (r.ok() && !r.samples.empty())
      out << ',' << median(r.samples) << ',' << *std::min_element(r.samples.begin(), r.samples.end()) << ','
          << *std::max_element(r.samples.begin(), r.samples.end()) << ',' << r.samples.size();
    else
      out << ",,,,0";
    out << ',' << unit << ',' << csv_field(first_line(r.detail)) << '\n';
  };
  for (const WorkloadResults& k : report.kernels) {
    for (size_t p = 0; p < report.paths.size(); ++p) row("kernel", k.workload, k.size_text, report.paths[p], k.by_path[p], "ms");
    for (size_t p = 1; p < report.paths.size(); ++p) {
      const double r = speed_ratio(k.by_path[0], k.by_path[p]);
      RunResult ratio = r > 0 ? RunResult{"ok", "", {r}} : RunResult{"n/a", "", {}};
      row("speed_ratio", k.workload, k.size_text, "vkcl vs " + report.paths[p], ratio, "x");
    }
  }
  for (const DispatchResult& d : report.dispatch) row("dispatch", "empty", "1 work-item", d.path + ": " + d.what, d.result, "us");
  const std::string dispatches = std::to_string(report.launch_dispatches) + " dispatches";
  for (const LaunchCost& l : report.launch) {
    row("launch_record", "launch", dispatches, l.method, l.record, "us/dispatch");
    row("launch_submit", "launch", dispatches, l.method, l.submit, "us/dispatch");
    row("launch_gpu", "launch", dispatches, l.method, l.gpu, "us/dispatch");
  }
  for (const CompileTiming& c : report.compiles) {
    row("compile", c.workload, "", "clc", c.clc, "ms");
    row("compile", c.workload, "", "clang+llvm-spirv", c.bare, "ms");
  }
}

std::string write_chart(const Report& report, const std::string& stem) {
  const size_t peers = report.paths.size() - 1;
  if (peers == 0 || report.kernels.empty()) return "chart: nothing to draw";
  {
    std::ofstream dat(stem + ".dat");
    dat << "workload";
    for (size_t p = 1; p <= peers; ++p) dat << " \"vs " << report.paths[p] << '"';
    dat << '\n';
    for (const WorkloadResults& k : report.kernels) {
      dat << k.workload;
      for (size_t p = 1; p <= peers; ++p) {
        const double r = speed_ratio(k.by_path[0], k.by_path[p]);
        dat << ' ' << (r > 0 ? fixed(r, 4) : "-");
      }
      dat << '\n';
    }
  }
  const std::string name = stem.substr(stem.find_last_of('/') + 1);
  {
    std::ofstream gp(stem + ".gp");
    write_gnuplot_preamble(gp, name, "vkcl speed against each peer (peer median time / vkcl median time; above 1: vkcl faster)",
                           report.header.size() > 2 ? report.header[2] : "");
    gp << "set datafile missing '-'\n"
       << "set style data histogram\nset style histogram cluster gap 1\nset style fill solid 0.85 border -1\n"
       << "set boxwidth 0.9\nset yrange [0:*]\nset grid ytics\nset key top left noenhanced\n"
       << "set xtics rotate by -25 noenhanced\nset ylabel 'speed ratio'\n"
       << "plot ";
    for (size_t p = 1; p <= peers; ++p)
      gp << (p == 1 ? "" : ", ") << "'" << name << ".dat' using " << p + 1 << (p == 1 ? ":xtic(1)" : "") << " title columnheader";
    gp << ", 1 with lines lc rgb 'black' dt 2 notitle\n";
  }
  return run_gnuplot(stem);
}

}  // namespace vkcl::bench
