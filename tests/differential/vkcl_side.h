// vkcl's side of a corpus kernel, shared by the differential test and the
// corpus benchmark: the compile options and module name build_program gets
// (so both find the same modules in VKCL_MODULE_CACHE), the classification
// of its errors, and one run with the header's inputs.
#pragma once

#include <filesystem>
#include <string>

#include "corpus.h"
#include "side.h"
#include "vkcl/host.h"
#include "vkcl/source_program.h"

namespace vkcl::corpus {

CompileOptions compile_options(const KernelSpec& spec);

// `file` relative to the repository at `source_dir`: diagnostics read
// "shaders/corpus/x.cl:3:5: error: ...", and the VKCL_MODULE_CACHE key (which
// covers the name) is the same in every checkout.
std::string relative_name(const std::filesystem::path& file, const std::filesystem::path& source_dir);

// vkcl's CompileError, classified: clang-style "file:line:col: error: ..." is
// a located diagnostic; "internal error: ..." is vkcl admitting a bug (an
// invalid module caught by its validator, a crash caught in LLVM).
std::string classify_compile_error(const std::string& message);

// Builds `spec`'s kernel with build_program (in process, or from
// VKCL_MODULE_CACHE), sets its arguments (every buffer with guards around
// it), runs it once and reads back the checked buffers. Then, when
// `timed_runs` > 0, runs it that many times more on the same buffers, each
// timed by Vulkan timestamps around the kernel, into times_ms. Before each,
// the checked buffers get their initial contents back: a kernel that
// indexes by what it counted there (an atomic ticket) would otherwise run
// past its buffers, and every timed run does the checked run's work.
// Failures are the returned Side's status, never an exception.
Side run_vkcl(Device& device, const KernelSpec& spec, const std::filesystem::path& source_dir, int timed_runs = 0);

}  // namespace vkcl::corpus
