#include "vkcl/source_program.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "compile_module.h"
#include "compiler_identity.h"
#include "vkcl/compile_worker.h"
#include "vkcl/device.h"
#include "vkcl/error.h"

namespace vkcl {
namespace {

// VKCL_STORAGE_BUFFER_ARGUMENTS=<n>, where set: then it decides, for every device.
std::optional<uint32_t> storage_buffer_arguments_asked() {
  const char* chosen = std::getenv("VKCL_STORAGE_BUFFER_ARGUMENTS");
  if (!chosen || !*chosen) return std::nullopt;
  return uint32_t(std::strtoul(chosen, nullptr, 10));
}

// As many storage-buffer arguments per kernel as the device binds, where
// they were measured faster than buffer addresses: on lavapipe (a CPU
// device), vkcl-bench ran at 0.53-0.85x of its twins with addresses and
// 0.83-1.05x with storage buffers; on the H100 storage buffers were never
// faster (docs/performance.md, "Argument passing").
uint32_t preferred_storage_buffer_arguments(const Device& device) {
  if (device.properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) return 0;
  return device.max_storage_buffer_arguments();
}

namespace fs = std::filesystem;

// FNV-1a, 64 bits: stable across compilers and runs, unlike std::hash.
class Fnv1a {
 public:
  Fnv1a& add(std::string_view text) {
    for (unsigned char c : text) hash_ = (hash_ ^ c) * 0x100000001b3ull;
    hash_ = (hash_ ^ 0xffu) * 0x100000001b3ull;  // field separator: ("ab","c") != ("a","bc")
    return *this;
  }
  Fnv1a& add(long long value) { return add(std::to_string(value)); }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Written beside the destination, then renamed: readers never see half a file.
void write_atomically(const fs::path& path, std::string_view bytes) {
  fs::path temporary = path;
  temporary += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) throw Error("VKCL_MODULE_CACHE: cannot write '" + temporary.string() + "'");
  }
  fs::rename(temporary, path);
}

// The name in `line` if it is an #include directive: "name" (`quoted`) or <name>.
std::optional<std::string> included_name(std::string_view line, bool& quoted) {
  auto skip_blanks = [&] {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  };
  skip_blanks();
  if (!line.starts_with('#')) return std::nullopt;
  line.remove_prefix(1);
  skip_blanks();
  if (!line.starts_with("include")) return std::nullopt;
  line.remove_prefix(std::strlen("include"));
  skip_blanks();
  if (line.empty() || (line.front() != '"' && line.front() != '<')) return std::nullopt;
  quoted = line.front() == '"';
  const size_t end = line.find(quoted ? '"' : '>', 1);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(line.substr(1, end - 1));
}

// Adds the path and contents of every file `source` includes, and of what
// those include, found as clang looks for them: a quoted name beside the
// including file first, then in the -I directories. Conditional includes
// count whatever the conditions (a key may only change too often); a name
// found nowhere (clang's own headers) is the compiler's to report.
void add_included_files(Fnv1a& hash, std::string_view source, const fs::path& dir,
                        const std::vector<std::string>& include_dirs, std::set<fs::path>& seen) {
  size_t start = 0;
  while (start < source.size()) {
    const size_t end = std::min(source.find('\n', start), source.size());
    bool quoted = false;
    if (std::optional<std::string> name = included_name(source.substr(start, end - start), quoted)) {
      std::vector<fs::path> places;
      if (quoted) places.push_back(dir / *name);
      for (const std::string& d : include_dirs) places.push_back(fs::path(d) / *name);
      for (const fs::path& place : places) {
        std::error_code error;
        if (!fs::is_regular_file(place, error)) continue;
        const fs::path file = fs::weakly_canonical(place, error);
        if (seen.insert(file).second) {
          const std::string text = read_bytes(file);
          hash.add(file.string()).add(text);
          add_included_files(hash, text, file.parent_path(), include_dirs, seen);
        }
        break;
      }
    }
    start = end + 1;
  }
}

std::optional<VulkanModule> load_cached(const fs::path& spv) {
  fs::path reflection = spv;
  reflection += ".reflection";
  if (!fs::exists(spv) || !fs::exists(reflection)) return std::nullopt;
  std::string bytes = read_bytes(spv);
  if (bytes.empty() || bytes.size() % 4 != 0) throw Error("VKCL_MODULE_CACHE: '" + spv.string() + "' is not a SPIR-V module");
  VulkanModule module;
  module.words.resize(bytes.size() / 4);
  std::memcpy(module.words.data(), bytes.data(), bytes.size());
  try {
    module.reflection = parse_reflection(read_bytes(reflection));
  } catch (const std::exception& e) {
    throw Error("VKCL_MODULE_CACHE: '" + reflection.string() + "': " + e.what());
  }
  return module;
}

void store(const fs::path& spv, const VulkanModule& module) {
  fs::path reflection = spv;
  reflection += ".reflection";
  write_atomically(spv, std::string_view(reinterpret_cast<const char*>(module.words.data()), module.words.size() * 4));
  write_atomically(reflection, serialize(module.reflection));
}

// Compiles where `settings` say, and hands the warnings over.
VulkanModule compile_now(std::string_view source, std::string_view file_name, const CompileOptions& options,
                         const BuildSettings& settings) {
  std::string warnings;
  VulkanModule module;
  if (settings.compile_in == CompileIn::ChildProcess) {
    WorkerCompileResult result = settings.workers ? settings.workers->compile(source, file_name, options, settings.headers)
                                                  : compile_in_worker(source, file_name, options, settings.headers);
    module = std::move(result.module);
    warnings = std::move(result.warnings);
  } else {
    module = detail::compile_module(source, file_name, options, settings.headers, warnings);
  }
  if (settings.warnings != nullptr) *settings.warnings += warnings;
  return module;
}

VulkanModule compiled_module(std::string_view source, std::string_view file_name, const CompileOptions& options,
                             const BuildSettings& settings) {
  const char* cache = std::getenv("VKCL_MODULE_CACHE");
  if (cache == nullptr || *cache == '\0') return compile_now(source, file_name, options, settings);
  std::error_code error;
  fs::create_directories(cache, error);
  const fs::path spv = fs::path(cache) / (module_cache_key(source, file_name, options, settings.headers) + ".spv");
  if (std::optional<VulkanModule> cached = load_cached(spv)) return std::move(*cached);
  VulkanModule module = compile_now(source, file_name, options, settings);
  store(spv, module);
  return module;
}

}  // namespace

CompileOptions compile_options_for(const ModuleFeatures& device_features, CompileOptions options) {
  options.memory_model = device_features.vulkan_memory_model ? MemoryModel::Vulkan : MemoryModel::GLSL450;
  options.vulkan_device_scope = device_features.vulkan_memory_model_device_scope;
  if (!options.max_storage_buffers) {
    // Addresses unless asked (build_program asks where the device is one on
    // which storage buffers were measured faster). VKCL_STORAGE_BUFFER_ARGUMENTS=<n>
    // asks for up to n per kernel where the device can push them: the
    // differential test covers storage buffers with it on lavapipe, and
    // tools/gpu-bundle.sh records such modules for the GPU to replay.
    options.max_storage_buffers = device_features.push_descriptor ? storage_buffer_arguments_asked().value_or(0) : 0;
  }
  return options;
}

std::string module_cache_key(std::string_view source, std::string_view file_name, const CompileOptions& options,
                             std::span<const InputHeader> headers) {
  Fnv1a hash;
  hash.add("vkcl-module-key 4").add(detail::kCompilerSourceHash).add(source).add(file_name);
  hash.add(static_cast<int>(options.cl_std));
  hash.add(options.optimize).add(static_cast<int>(options.memory_model)).add(options.vulkan_device_scope);
  hash.add(options.lower).add(options.max_storage_buffers.value_or(0));
  // Only when given, so that the keys of modules built without it stay as they were.
  if (options.denorms_are_zero) hash.add("-cl-denorms-are-zero");
  for (const std::string& define : options.defines) hash.add("-D").add(define);
  for (const std::string& dir : options.include_dirs) hash.add("-I").add(dir);
  for (const std::string& option : options.frontend_options) hash.add(option);
  // Only when given, like -cl-denorms-are-zero. Their text is in the key;
  // so are the files they #include, found as the source's are (beside the
  // source first: a key may change too often, never too seldom).
  for (const InputHeader& header : headers) hash.add("input-header").add(header.name).add(header.text);
  std::set<fs::path> seen;
  const fs::path source_dir = fs::path(file_name).parent_path();
  add_included_files(hash, source, source_dir, options.include_dirs, seen);
  for (const InputHeader& header : headers)
    add_included_files(hash, header.text, source_dir, options.include_dirs, seen);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.value()));
  return text;
}

VulkanModule compile_module_for(const ModuleFeatures& device_features, std::string_view source,
                                std::string_view file_name, CompileOptions options, const BuildSettings& settings) {
  return compiled_module(source, file_name, compile_options_for(device_features, std::move(options)), settings);
}

CompileOptions compile_options_for(const Device& device, CompileOptions options) {
  if (!options.max_storage_buffers && !storage_buffer_arguments_asked())
    options.max_storage_buffers = preferred_storage_buffer_arguments(device);
  return compile_options_for(device.features(), std::move(options));
}

Program load_program(Device& device, VulkanModule module, const CompileOptions& options,
                     std::function<VulkanModule(const CompileOptions&)> recompile) {
  if (options.max_storage_buffers.value_or(0) == 0 || !recompile)
    return Program(device, module.words, std::move(module.reflection));
  // Storage buffers bind at most maxStorageBufferRange bytes, at aligned
  // offsets, and never NULL; a kernel given such an argument runs from the
  // module with addresses.
  auto by_address = [options, recompile = std::move(recompile)]() {
    CompileOptions addresses = options;
    addresses.max_storage_buffers = 0;
    VulkanModule m = recompile(addresses);
    return Program::Module{std::move(m.words), std::move(m.reflection)};
  };
  return Program(device, module.words, std::move(module.reflection), std::move(by_address));
}

Program build_program(Device& device, std::string_view source, std::string_view file_name, CompileOptions options,
                      const BuildSettings& settings) {
  const ModuleFeatures features = device.features();
  options = compile_options_for(device, std::move(options));
  VulkanModule module = compile_module_for(features, source, file_name, options, settings);
  // The module with addresses is compiled later if ever, when the caller's
  // warnings string may be gone.
  BuildSettings later = settings;
  later.warnings = nullptr;
  auto recompile = [features, source = std::string(source), file_name = std::string(file_name),
                    later = std::move(later)](const CompileOptions& o) {
    return compile_module_for(features, source, file_name, o, later);
  };
  return load_program(device, std::move(module), options, std::move(recompile));
}

}  // namespace vkcl
