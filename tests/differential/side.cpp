#include "side.h"

#include <algorithm>
#include <cstring>

#include "worker.h"

namespace vkcl::corpus {

void read_worker_outputs(const KernelSpec& spec, const std::filesystem::path& dir, Side& side) {
  for (const Check& c : spec.checks) {
    const std::string bytes = read_text(dir / (spec.id + "." + c.arg + ".bin"));
    std::vector<std::byte>& output = side.outputs[c.arg];
    output.resize(bytes.size());
    std::memcpy(output.data(), bytes.data(), bytes.size());
  }
}

std::string compare_sides(const KernelSpec& spec, const Side& vkcl, const Side& opencl, double& max_ulp) {
  if (!vkcl.overrun.empty()) return "vkcl wrote outside a buffer: " + vkcl.overrun;
  static const std::vector<std::byte> none;
  auto output = [](const Side& side, const std::string& name) -> const std::vector<std::byte>& {
    auto it = side.outputs.find(name);
    return it == side.outputs.end() ? none : it->second;
  };
  std::string mismatch;
  for (const Check& c : spec.checks) {
    Comparison cmp = compare(c, *spec.find_arg(c.arg), output(vkcl, c.arg), output(opencl, c.arg));
    max_ulp = std::max(max_ulp, cmp.max_ulp);
    if (mismatch.empty()) mismatch = cmp.mismatch;
  }
  return mismatch;
}

std::string first_line(std::string_view text) {
  size_t start = text.find_first_not_of("\n ");
  if (start == std::string_view::npos) return "";
  text = text.substr(start);
  return std::string(text.substr(0, text.find('\n')));
}

}  // namespace vkcl::corpus
