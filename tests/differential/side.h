// What one implementation made of a corpus kernel (vkcl's side or an OpenCL
// worker's), and the comparison of two: shared by the differential test and
// the corpus benchmark. Knows nothing of Vulkan or OpenCL.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "corpus.h"

namespace vkcl::corpus {

struct Side {
  std::string status = "not run";  // "ok" or a status of kStatuses (or "no-module", "spec-error")
  std::string detail;              // the whole message
  std::map<std::string, std::vector<std::byte>> outputs;  // checked buffers
  std::string overrun;             // what the kernel wrote outside its buffers (vkcl's side)
  std::vector<double> times_ms;    // the timed runs after the checked one (vkcl's side, when asked for)
  std::string timing_error;        // why there are fewer times than asked for
};

// The checked buffers an OpenCL worker wrote for `spec` into `dir` (<id>.<arg>.bin).
void read_worker_outputs(const KernelSpec& spec, const std::filesystem::path& dir, Side& side);

// Every @check of `spec`, vkcl's outputs against the OpenCL side's: "" when
// all agree, else the first mismatch (and vkcl's writes outside its buffers
// come first). `max_ulp` gets the largest ulp distance seen.
std::string compare_sides(const KernelSpec& spec, const Side& vkcl, const Side& opencl, double& max_ulp);

// The first line of `text` after leading blank lines.
std::string first_line(std::string_view text);

}  // namespace vkcl::corpus
