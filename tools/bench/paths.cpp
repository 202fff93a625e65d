#include "paths.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace vkcl::bench {

RunResult measure(const Case& c, int repeat, const std::function<double()>& run_once,
                  const std::function<std::vector<std::vector<std::byte>>()>& read) {
  RunResult result;
  try {
    run_once();
    if (std::string wrong = c.verify(read()); !wrong.empty()) return {"wrong result", wrong, {}};
    for (int i = 0; i < repeat; ++i) result.samples.push_back(run_once());
  } catch (const std::exception& e) {
    return {"run error", e.what(), {}};
  }
  return result;
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
