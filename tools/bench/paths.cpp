#include "paths.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace vkcl::bench {

Prepared verify_first_run(const Case& c, std::unique_ptr<Trial> trial) {
  try {
    trial->run_once();
    if (std::string wrong = c.verify(trial->read_outputs()); !wrong.empty())
      return {{"wrong result", wrong, {}, trial->notes()}, nullptr};
  } catch (const std::exception& e) {
    return {{"run error", e.what(), {}, trial->notes()}, nullptr};
  }
  return {{"ok", "", {}, trial->notes()}, std::move(trial)};
}

std::vector<RunResult> time_interleaved(std::vector<Prepared>& prepared, int repeat) {
  const size_t n = prepared.size();
  std::vector<RunResult> results;
  for (const Prepared& p : prepared) results.push_back(p.result);
  for (int round = 0; round < repeat; ++round) {
    for (size_t k = 0; k < n; ++k) {
      const size_t p = (size_t(round) + k) % n;
      if (!prepared[p].trial) continue;
      try {
        results[p].samples.push_back(prepared[p].trial->run_once());
      } catch (const std::exception& e) {
        results[p].status = "run error";
        results[p].detail = e.what();
        results[p].samples.clear();
        prepared[p].trial.reset();
      }
    }
  }
  return results;
}

std::string first_line(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  return line.size() > 160 ? line.substr(0, 157) + "..." : line;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace vkcl::bench
