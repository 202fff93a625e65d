#include "saved_run.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "side.h"

namespace vkcl::corpus_bench {

namespace fs = std::filesystem;

namespace {

// One line per value: what follows the key is the rest of the line.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

void write_timing(std::ostream& out, const char* key, const std::optional<corpus::KernelTiming>& timing) {
  if (timing) out << key << ' ' << corpus::timing_line(*timing) << '\n';
}

std::vector<std::pair<std::string, std::string>> read_lines(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<std::pair<std::string, std::string>> lines;
  for (std::string line; std::getline(in, line);) {
    const size_t space = line.find(' ');
    lines.emplace_back(line.substr(0, space), space == std::string::npos ? "" : line.substr(space + 1));
  }
  return lines;
}

std::optional<corpus::KernelTiming> timing_from(const std::string& value, const fs::path& file) {
  std::optional<corpus::KernelTiming> timing = corpus::find_timing(value);
  if (!timing) throw std::runtime_error(file.string() + ": unreadable timing '" + value + "'");
  return timing;
}

KernelResult load_kernel(const fs::path& file) {
  KernelResult k;
  for (const auto& [key, value] : read_lines(file)) {
    if (key == "id") k.id = value;
    else if (key == "skipped") k.skipped = value;
    else if (key == "listed") k.listed = value == "1";
    else if (key == "vkcl") k.vkcl_status = value;
    else if (key == "vkcl-detail") k.vkcl_detail = value;
    else if (key == "vkcl-time") k.vkcl_timing = timing_from(value, file);
    else if (key == "platform") k.platforms.push_back({value, "", std::nullopt});
    else if (key == "platform-detail" && !k.platforms.empty()) k.platforms.back().detail = value;
    else if (key == "platform-time" && !k.platforms.empty()) k.platforms.back().timing = timing_from(value, file);
    else throw std::runtime_error(file.string() + ": unexpected line '" + key + "'");
  }
  if (k.id.empty()) throw std::runtime_error(file.string() + ": no id");
  return k;
}

}  // namespace

void save_kernel(const fs::path& out, const KernelResult& k) {
  fs::create_directories(out / "kernels");
  std::ofstream file(out / "kernels" / (k.id + ".txt"), std::ios::trunc);
  file << "id " << k.id << "\nlisted " << (k.listed ? 1 : 0) << "\nvkcl " << k.vkcl_status << '\n';
  if (!k.skipped.empty()) file << "skipped " << one_line(k.skipped) << '\n';
  if (!k.vkcl_detail.empty()) file << "vkcl-detail " << one_line(corpus::first_line(k.vkcl_detail)) << '\n';
  write_timing(file, "vkcl-time", k.vkcl_timing);
  for (const PlatformResult& p : k.platforms) {
    file << "platform " << p.status << '\n';
    if (!p.detail.empty()) file << "platform-detail " << one_line(corpus::first_line(p.detail)) << '\n';
    write_timing(file, "platform-time", p.timing);
  }
}

void save_run(const fs::path& out, const Run& run) {
  std::ofstream file(out / "run.txt", std::ios::trunc);
  file << "threshold-ms " << run.threshold_ms << '\n';
  for (const std::string& line : run.header) file << "header " << one_line(line) << '\n';
  for (const Platform& p : run.platforms)
    file << "platform " << p.name << "\nplatform-description " << one_line(p.description) << "\nplatform-unavailable "
         << one_line(p.unavailable) << '\n';
}

Run load_runs(const std::vector<fs::path>& dirs) {
  Run merged;
  std::map<std::string, KernelResult> kernels;
  for (size_t d = 0; d < dirs.size(); ++d) {
    Run part;
    for (const auto& [key, value] : read_lines(dirs[d] / "run.txt")) {
      if (key == "threshold-ms") part.threshold_ms = std::stod(value);
      else if (key == "header") part.header.push_back(value);
      else if (key == "platform") part.platforms.push_back({value, "", ""});
      else if (key == "platform-description" && !part.platforms.empty()) part.platforms.back().description = value;
      else if (key == "platform-unavailable" && !part.platforms.empty()) part.platforms.back().unavailable = value;
    }
    if (d == 0) {
      merged = part;
    } else {
      if (part.platforms.size() != merged.platforms.size())
        throw std::runtime_error(dirs[d].string() + " ran other OpenCL platforms than " + dirs[0].string());
      for (size_t p = 0; p < part.platforms.size(); ++p) {
        Platform& kept = merged.platforms[p];
        if (kept.description.empty() && !part.platforms[p].description.empty()) kept = part.platforms[p];
      }
      merged.header.push_back("merged with " + dirs[d].string() + ": " + (part.header.empty() ? "" : part.header[0]));
    }
    if (!fs::exists(dirs[d] / "kernels")) continue;
    for (const auto& entry : fs::directory_iterator(dirs[d] / "kernels")) {
      KernelResult k = load_kernel(entry.path());
      k.platforms.resize(merged.platforms.size(), PlatformResult{"not run", "", std::nullopt});
      kernels[k.id] = std::move(k);
    }
  }
  for (auto& [id, k] : kernels) merged.kernels.push_back(std::move(k));
  return merged;
}

}  // namespace vkcl::corpus_bench
