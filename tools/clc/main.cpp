// clc: the vkcl compiler front door. OpenCL C in, Vulkan SPIR-V plus
// reflection out; command line and messages modelled on clang's.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <charconv>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "compiler.h"
#include "reflection.h"

namespace {

constexpr std::string_view kUsage = R"(OVERVIEW: vkcl OpenCL C compiler: OpenCL C kernels to Vulkan compute SPIR-V

USAGE: clc [options] <input.cl | ->

Writes <output> (Vulkan SPIR-V, one GLCompute entry point per kernel) and
<output>.reflection (what the host needs to dispatch it). Nothing is written
unless the whole compilation, lowering and validation succeed.

OPTIONS:
  -o <file>               Output file (default: <input stem>.spv, a.spv for stdin)
  -cl-std=<version>       OpenCL C version: CL1.2 (default), CL2.0, CL3.0
  -D<name>[=<value>]      Define a macro (also -D <name>)
  -I<dir>                 Add an include directory (also -I <dir>)
  -O0                     Optimize only as much as lowering needs
  -O, -O1, -O2, -O3       Optimize (all mean -O2, the default)
  -cl-denorms-are-zero    Allow subnormal floats and doubles to be flushed to zero
                          (recorded in the reflection; the runtime then does not
                          ask the device to preserve them)
  --memory-model=<model>  vulkan (default) or glsl450
  --device-scope=<scope>  What memory_scope_device becomes under the Vulkan memory
                          model: device (default; needs vulkanMemoryModelDeviceScope)
                          or queue-family
  --max-storage-buffers=<n>
                          Pointer arguments of a kernel that may become storage-buffer
                          descriptors (default 0: buffer device addresses only;
                          docs/performance.md says why)
  --emit-kernel-spirv     Write the translator's Kernel SPIR-V instead (debugging;
                          no lowering, no reflection file)
  --help                  Show this text
)";

struct UsageError {
  std::string message;
};

struct Arguments {
  std::optional<std::string> input;
  std::optional<std::string> output;
  vkcl::CompileOptions options;
  bool emit_kernel_spirv = false;
  bool help = false;
};

Arguments parse_arguments(int argc, char** argv) {
  Arguments parsed;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    // A value attached ("-Dx", "-Idir") or in the next argument ("-D x").
    auto value_of = [&](std::string_view flag) -> std::string {
      if (arg.size() > flag.size()) return std::string(arg.substr(flag.size()));
      if (i + 1 >= args.size())
        throw UsageError{"argument to '" + std::string(flag) + "' is missing (expected 1 value)"};
      return std::string(args[++i]);
    };
    if (arg == "--help" || arg == "-help" || arg == "-h") {
      parsed.help = true;
    } else if (arg == "-o") {
      parsed.output = value_of("-o");
    } else if (arg.starts_with("-o") && arg != "-") {
      parsed.output = std::string(arg.substr(2));
    } else if (arg.starts_with("-D")) {
      std::string define = value_of("-D");
      if (define.empty() || define[0] == '=') throw UsageError{"macro name missing in '-D" + define + "'"};
      parsed.options.defines.push_back(std::move(define));
    } else if (arg.starts_with("-I")) {
      parsed.options.include_dirs.push_back(value_of("-I"));
    } else if (arg.starts_with("-cl-std=")) {
      const std::string_view value = arg.substr(std::strlen("-cl-std="));
      if (value == "CL1.2" || value == "cl1.2") parsed.options.cl_std = vkcl::OpenCLStd::CL1_2;
      else if (value == "CL2.0" || value == "cl2.0") parsed.options.cl_std = vkcl::OpenCLStd::CL2_0;
      else if (value == "CL3.0" || value == "cl3.0") parsed.options.cl_std = vkcl::OpenCLStd::CL3_0;
      else throw UsageError{"invalid value '" + std::string(value) + "' in '" + std::string(arg) + "' (expected CL1.2, CL2.0 or CL3.0)"};
    } else if (arg == "-cl-denorms-are-zero") {
      parsed.options.denorms_are_zero = true;
    } else if (arg == "-O0") {
      parsed.options.optimize = false;
    } else if (arg == "-O" || arg == "-O1" || arg == "-O2" || arg == "-O3") {
      parsed.options.optimize = true;
    } else if (arg.starts_with("--memory-model=")) {
      const std::string_view value = arg.substr(std::strlen("--memory-model="));
      if (value == "vulkan") parsed.options.memory_model = vkcl::MemoryModel::Vulkan;
      else if (value == "glsl450") parsed.options.memory_model = vkcl::MemoryModel::GLSL450;
      else throw UsageError{"invalid value '" + std::string(value) + "' in '" + std::string(arg) + "' (expected vulkan or glsl450)"};
    } else if (arg.starts_with("--device-scope=")) {
      const std::string_view value = arg.substr(std::strlen("--device-scope="));
      if (value == "device") parsed.options.vulkan_device_scope = true;
      else if (value == "queue-family") parsed.options.vulkan_device_scope = false;
      else throw UsageError{"invalid value '" + std::string(value) + "' in '" + std::string(arg) + "' (expected device or queue-family)"};
    } else if (arg.starts_with("--max-storage-buffers=")) {
      const std::string_view value = arg.substr(std::strlen("--max-storage-buffers="));
      uint32_t n = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || value.empty())
        throw UsageError{"invalid value '" + std::string(value) + "' in '" + std::string(arg) + "' (expected a count)"};
      parsed.options.max_storage_buffers = n;
    } else if (arg == "--emit-kernel-spirv") {
      parsed.emit_kernel_spirv = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw UsageError{"unknown argument: '" + std::string(arg) + "'"};
    } else {
      if (parsed.input) throw UsageError{"more than one input file: '" + *parsed.input + "' and '" + std::string(arg) + "'"};
      parsed.input = std::string(arg);
    }
  }
  return parsed;
}

std::string read_input(const std::string& input) {
  if (input == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    return text.str();
  }
  std::error_code error;
  if (!std::filesystem::exists(input, error)) throw UsageError{"no such file or directory: '" + input + "'"};
  if (std::filesystem::is_directory(input, error)) throw UsageError{"'" + input + "' is a directory"};
  std::ifstream file(input, std::ios::binary);
  if (!file) throw UsageError{"cannot open '" + input + "': " + std::strerror(errno)};
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw UsageError{"cannot read '" + input + "'"};
  return text;
}

// Writes files only once all of them are ready: each goes to a temporary file
// beside its destination and is renamed over it at the end, so a failure
// leaves every existing file as it was.
class AtomicOutputs {
 public:
  ~AtomicOutputs() {
    for (const Pending& pending : pending_) std::remove(pending.temporary.c_str());
  }
  void add(const std::string& path, const void* data, size_t size) {
    std::filesystem::path destination(path);
    std::filesystem::path directory = destination.parent_path();
    std::string pattern = (directory.empty() ? std::filesystem::path(".") : directory).string() + "/." +
                          destination.filename().string() + ".tmp.XXXXXX";
    int fd = mkstemp(pattern.data());
    if (fd < 0) throw UsageError{"cannot write '" + path + "': " + std::strerror(errno)};
    pending_.push_back({pattern, path});
    const char* bytes = static_cast<const char*>(data);
    while (size > 0) {
      ssize_t written = ::write(fd, bytes, size);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        int saved = errno;
        ::close(fd);
        throw UsageError{"cannot write '" + path + "': " + std::strerror(saved)};
      }
      bytes += written;
      size -= static_cast<size_t>(written);
    }
    // mkstemp creates 0600; outputs get the usual 0666 less the umask.
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    if (::close(fd) != 0) throw UsageError{"cannot write '" + path + "': " + std::strerror(errno)};
  }
  void commit() {
    for (Pending& pending : pending_) {
      if (std::rename(pending.temporary.c_str(), pending.destination.c_str()) != 0)
        throw UsageError{"cannot write '" + pending.destination + "': " + std::strerror(errno)};
      pending.temporary.clear();
    }
    pending_.clear();
  }

 private:
  struct Pending {
    std::string temporary;
    std::string destination;
  };
  std::vector<Pending> pending_;
};

std::string default_output(const std::string& input) {
  if (input == "-") return "a.spv";
  return std::filesystem::path(input).stem().string() + ".spv";
}

int run(int argc, char** argv) {
  Arguments arguments = parse_arguments(argc, argv);
  if (arguments.help) {
    std::cout << kUsage;
    return 0;
  }
  if (!arguments.input) throw UsageError{"no input files"};
  if (arguments.output && arguments.output->empty()) throw UsageError{"argument to '-o' is empty"};

  const std::string source = read_input(*arguments.input);
  const std::string file_name = *arguments.input == "-" ? "<stdin>" : *arguments.input;
  const std::string output = arguments.output.value_or(default_output(*arguments.input));

  arguments.options.lower = !arguments.emit_kernel_spirv;
  vkcl::CompileResult result;
  try {
    result = vkcl::compile_opencl(source, file_name, arguments.options);
  } catch (const vkcl::CompileError& error) {
    std::string text = error.what();
    if (!text.empty() && text.back() != '\n') text += '\n';
    std::cerr << text;
    return 1;
  }
  std::cerr << result.warnings;

  AtomicOutputs outputs;
  if (arguments.emit_kernel_spirv) {
    outputs.add(output, result.kernel_spirv.data(), result.kernel_spirv.size() * sizeof(uint32_t));
  } else {
    const std::string reflection = vkcl::serialize(result.module.reflection);
    outputs.add(output, result.module.words.data(), result.module.words.size() * sizeof(uint32_t));
    outputs.add(output + ".reflection", reflection.data(), reflection.size());
  }
  outputs.commit();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& error) {
    std::cerr << "clc: error: " << error.message << "\n";
  } catch (const vkcl::CompileError& error) {
    std::cerr << error.what();
  } catch (const std::exception& error) {
    std::cerr << "clc: error: internal compiler error: " << error.what() << "\n";
  } catch (...) {
    std::cerr << "clc: error: internal compiler error\n";
  }
  return 1;
}
