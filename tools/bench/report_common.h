// What the reports of both benchmarks (vkcl-bench here, vkcl-corpus-bench in
// tools/corpus_bench) share: the geometric mean of speed ratios, and
// drawing a chart with gnuplot where it is installed.
#pragma once

#include <cmath>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

namespace vkcl::bench {

// The geometric mean of positive values; 0 for none.
inline double geomean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / double(values.size()));
}

// The first lines of the gnuplot script `name`.gp, which draws `name`.png
// (1200x640) from `name`.dat, titled `title` over `subtitle`.
inline void write_gnuplot_preamble(std::ostream& gp, const std::string& name, const std::string& title,
                                   const std::string& subtitle) {
  gp << "# gnuplot " << name << ".gp (from its directory) draws " << name << ".png from " << name << ".dat\n"
     << "set terminal pngcairo size 1200,640 font 'sans,11'\n"
     << "set output '" << name << ".png'\n"
     << "set title \"" << title << "\\n" << subtitle << "\" noenhanced\n";
}

// Runs gnuplot on <stem>.gp in its directory (the script names its own
// output, <stem>.png). Returns what happened, for the report's notes.
inline std::string run_gnuplot(const std::string& stem) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    return "chart: gnuplot not found; " + stem + ".gp draws it elsewhere (apt install gnuplot-nox)";
  const size_t slash = stem.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : stem.substr(0, slash);
  const std::string name = slash == std::string::npos ? stem : stem.substr(slash + 1);
  if (std::system(("cd '" + dir + "' && gnuplot '" + name + ".gp' 2>&1").c_str()) != 0)
    return "chart: gnuplot failed on " + stem + ".gp";
  return "chart: " + stem + ".png";
}

}  // namespace vkcl::bench
