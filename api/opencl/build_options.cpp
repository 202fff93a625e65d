#include "build_options.h"

#include <array>
#include <vector>

#include "errors.h"

namespace vkcl::opencl {
namespace {

// Splits at blanks; double quotes group (-I "dir with spaces", -D "X=a b").
std::vector<std::string> words_of(std::string_view text, cl_int invalid) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, quoted = false;
  for (char c : text) {
    if (c == '"') {
      quoted = !quoted;
      in_word = true;
    } else if (!quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  require(!quoted, invalid, "an unterminated quote");
  if (in_word) words.push_back(std::move(word));
  return words;
}

// Options clang's -cc1 takes as they are (CompileOptions::frontend_options).
constexpr std::array kFrontendOptions = {
    "-cl-single-precision-constant", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable",                "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-fast-relaxed-math",         "-cl-uniform-work-group-size",
    "-w",                            "-Werror",
};

bool is_frontend_option(std::string_view word) {
  for (const char* o : kFrontendOptions)
    if (word == o) return true;
  return false;
}

}  // namespace

BuildOptions parse_build_options(std::string_view options, cl_int invalid) {
  BuildOptions b;
  auto words = words_of(options, invalid);
  std::optional<std::string_view> cl_std;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    // -D and -I take their value joined or as the next word.
    auto value = [&](std::string_view flag) {
      if (w.size() > flag.size()) return w.substr(flag.size());
      require(i + 1 < words.size(), invalid, "-D or -I without a value");
      return words[++i];
    };
    if (w.starts_with("-D")) {
      b.compile.defines.push_back(value("-D"));
    } else if (w.starts_with("-I")) {
      b.compile.include_dirs.push_back(value("-I"));
    } else if (w.starts_with("-cl-std=")) {
      cl_std = std::string_view(w).substr(8);
      if (*cl_std == "CL1.0" || *cl_std == "CL1.1" || *cl_std == "CL1.2") {
        // clang's CL1.0 and CL1.1 differ from CL1.2 only in what they
        // reject; vkcl's devices have every 1.2 feature.
        b.compile.cl_std = OpenCLStd::CL1_2;
      } else if (*cl_std == "CL3.0") {
        b.compile.cl_std = OpenCLStd::CL3_0;
      } else {
        // CL2.0 is not among CL_DEVICE_OPENCL_C_ALL_VERSIONS: vkcl lacks its
        // mandatory features (pipes, device enqueue, generic images).
        throw ClError{invalid, "-cl-std=" + std::string(*cl_std) + " is not supported"};
      }
    } else if (w == "-cl-opt-disable") {
      b.compile.optimize = false;
    } else if (w == "-cl-denorms-are-zero") {
      b.compile.denorms_are_zero = true;
    } else if (w == "-cl-kernel-arg-info") {
      b.kernel_arg_info = true;
    } else if (w == "-g" || w == "-cl-no-stdinc" || w == "-cl-no-subgroup-ifp") {
      // Debug information: nothing to keep it in. -cl-no-stdinc: the
      // declarations come from clang's builtin table, not a header.
      // -cl-no-subgroup-ifp: a hint that the kernels need no independent
      // forward progress of sub-groups, which changes nothing here (and
      // clang 15's -cc1 does not know it).
    } else if (is_frontend_option(w)) {
      b.compile.frontend_options.push_back(w);
      if (w == "-cl-uniform-work-group-size") b.uniform_work_groups = true;
    } else {
      throw ClError{invalid, "unknown build option '" + w + "'"};
    }
  }
  // OpenCL C 1.x has no non-uniform work-groups (clang's default is CL1.2).
  if (b.compile.cl_std == OpenCLStd::CL1_2) b.uniform_work_groups = true;
  return b;
}

std::string build_options_text(const BuildOptions& options) {
  std::string text;
  auto add = [&](std::string_view option) { text += (text.empty() ? "" : " ") + std::string(option); };
  // OpenCL C 1.2, the default, has only uniform work-groups; 3.0 needs
  // -cl-uniform-work-group-size to.
  if (!options.uniform_work_groups) add("-cl-std=CL3.0");
  if (!options.compile.optimize) add("-cl-opt-disable");
  if (options.compile.denorms_are_zero) add("-cl-denorms-are-zero");
  if (options.kernel_arg_info) add("-cl-kernel-arg-info");
  return text;
}

LinkOptions parse_link_options(std::string_view options) {
  LinkOptions l;
  bool enable_link_options = false;
  for (const std::string& w : words_of(options, CL_INVALID_LINKER_OPTIONS)) {
    if (w == "-create-library") {
      l.create_library = true;
    } else if (w == "-enable-link-options") {
      enable_link_options = true;
    } else if (w == "-cl-denorms-are-zero") {
      l.denorms_are_zero = true;
    } else if (w == "-cl-no-signed-zeros" || w == "-cl-unsafe-math-optimizations" || w == "-cl-finite-math-only" ||
               w == "-cl-fast-relaxed-math") {
      l.frontend_options.push_back(w);
    } else if (w == "-cl-no-subgroup-ifp") {
      // A hint (parse_build_options says why it is dropped).
    } else {
      throw ClError{CL_INVALID_LINKER_OPTIONS, "unknown link option '" + w + "'"};
    }
  }
  require(!enable_link_options || l.create_library, CL_INVALID_LINKER_OPTIONS,
          "-enable-link-options is only for -create-library");
  return l;
}

}  // namespace vkcl::opencl
