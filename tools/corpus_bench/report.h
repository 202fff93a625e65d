// vkcl-corpus-bench's outputs: the text report (table of every kernel, then
// the summary per platform), the CSV, and the gnuplot chart of the ratios.
#pragma once

#include <string>

#include "results.h"

namespace vkcl::corpus_bench {

std::string format_report(const Run& run);
// One row per kernel: id, status, vkcl times, then each platform's status, times, clock and ratio.
void write_csv(const Run& run, const std::string& path);
// Writes <stem>.dat and <stem>.gp (each platform's ratios sorted, on a log
// scale, with lines at 0.8x and 1.0x), and runs gnuplot for <stem>.png where
// it is installed. Returns what it did, for the report.
std::string write_chart(const Run& run, const std::string& stem);

}  // namespace vkcl::corpus_bench
