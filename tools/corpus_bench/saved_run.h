// A run's results as files, so that runs of parts of the corpus (--part K/N,
// or one cut short by --time-limit) can be reported together (--merge): on
// a machine that limits how long one command may take, each part is one
// command, and the report is made where the parts' outputs are gathered.
//
// <out>/kernels/<id>.txt holds one kernel's result, <out>/run.txt the
// header and the platforms. Line-oriented "key value" text.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "results.h"

namespace vkcl::corpus_bench {

void save_kernel(const std::filesystem::path& out, const KernelResult& kernel);
void save_run(const std::filesystem::path& out, const Run& run);

// The runs saved in `dirs`, as one: the kernels of all (sorted by id; a
// kernel in several takes the last directory's), the first's header and
// threshold, each platform's description from whichever run had one.
// Throws std::runtime_error naming the file for anything unreadable, and when
// the runs have other platforms.
Run load_runs(const std::vector<std::filesystem::path>& dirs);

}  // namespace vkcl::corpus_bench
