// vkcl-run: runs one OpenCL C kernel (.cl compiled in process, or a clc
// .spv) on a Vulkan device with arguments from the command line, and prints
// or writes the buffers it asked for. `vkcl-run --help` says how.
//
// Exit status: 0 ok; 1 the kernel, the device or a run failed (the message
// may span lines, e.g. a compiler diagnostic); 2 the command line is wrong
// (one line). Everything that only the command line can get wrong, including
// argument names, kinds and sizes checked against the kernel's reflection, is
// checked before anything runs. A run that does not finish within --timeout
// exits 1 at once, without waiting for the device (see exit_after_timeout).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.h"
#include "values.h"
#include "vkcl/host.h"
#include "vkcl/source_program.h"

namespace vkcl::run {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path, std::string_view what) {
  std::error_code error;
  if (!fs::exists(path, error)) throw UsageError{"no such file: '" + path.string() + "' (" + std::string(what) + ")"};
  if (fs::is_directory(path, error)) throw UsageError{"'" + path.string() + "' is a directory (" + std::string(what) + ")"};
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) throw UsageError{"cannot read '" + path.string() + "' (" + std::string(what) + ")"};
  return bytes;
}

std::string describe_arg(const KernelReflection& k, uint32_t index) {
  const KernelArg& a = k.args[index];
  return "argument " + std::to_string(index) + (a.name.empty() ? "" : " (" + a.name + ")") + " of kernel '" + k.name + "'";
}

std::string_view kind_of(const ArgSpec& spec) {
  if (std::holds_alternative<ScalarValue>(spec.value)) return "a by-value TYPE:VALUE";
  if (std::holds_alternative<LocalValue>(spec.value)) return "a local:BYTES size";
  return "a buffer";
}

bool fits(const ArgSpec& spec, const KernelArg& arg) {
  if (std::holds_alternative<ScalarValue>(spec.value)) return arg.kind == ArgKind::Scalar;
  if (std::holds_alternative<LocalValue>(spec.value)) return arg.kind == ArgKind::LocalPointer;
  return arg.kind == ArgKind::GlobalPointer || arg.kind == ArgKind::ConstantPointer;
}

std::string_view wants(const KernelArg& arg) {
  switch (arg.kind) {
    case ArgKind::Scalar: return "a by-value argument: give TYPE:VALUE";
    case ArgKind::LocalPointer: return "a __local pointer: give local:BYTES";
    default: return "a global or constant pointer: give a buffer (zeros, iota, random, fill or file)";
  }
}

// Which argument each --arg sets: by name, by index, or the one after the
// previous --arg's.
std::vector<const ArgSpec*> assign_args(const CommandLine& cl, const KernelReflection& k) {
  std::vector<const ArgSpec*> by_index(k.args.size(), nullptr);
  uint32_t next = 0;
  for (const ArgSpec& spec : cl.args) {
    uint32_t index = next;
    if (spec.name) {
      const KernelArg* a = k.find_arg(*spec.name);
      if (!a) {
        std::string names;
        for (const KernelArg& arg : k.args) names += (names.empty() ? "" : ", ") + (arg.name.empty() ? "-" : arg.name);
        throw UsageError{"'" + spec.given + "': kernel '" + k.name + "' has no argument named '" + *spec.name +
                         "' (its arguments: " + (names.empty() ? "none" : names) + ")"};
      }
      index = a->index;
    } else if (spec.index) {
      index = *spec.index;
    }
    if (index >= k.args.size())
      throw UsageError{"'" + spec.given + "' would set argument " + std::to_string(index) + ", but kernel '" + k.name +
                       "' has " + std::to_string(k.args.size()) + " argument(s)"};
    if (by_index[index])
      throw UsageError{describe_arg(k, index) + " is given twice: '" + by_index[index]->given + "' and '" + spec.given + "'"};
    if (!fits(spec, k.args[index]))
      throw UsageError{"'" + spec.given + "' is " + std::string(kind_of(spec)) + ", but " + describe_arg(k, index) +
                       " is " + std::string(wants(k.args[index]))};
    by_index[index] = &spec;
    next = index + 1;
  }
  std::string missing;
  for (uint32_t i = 0; i < by_index.size(); ++i)
    if (!by_index[i])
      missing += (missing.empty() ? "" : ", ") + std::to_string(i) + (k.args[i].name.empty() ? "" : " (" + k.args[i].name + ")");
  if (!missing.empty()) throw UsageError{"kernel '" + k.name + "' argument(s) not given: " + missing};
  return by_index;
}

struct BoundBuffer {
  uint32_t index = 0;
  ElementType type;
  std::vector<std::byte> initial;  // what each run starts from
  Buffer buffer;
};

std::vector<std::byte> buffer_contents(const BufferValue& value, const std::string& given) {
  if (!value.file) return generate(value.pattern, value.type, value.count, value.seed, value.fill_value);
  const std::string bytes = read_file(*value.file, given);
  if (bytes.empty() || bytes.size() % value.type.size() != 0)
    throw UsageError{"'" + *value.file + "' has " + std::to_string(bytes.size()) + " bytes, not a positive whole number of " +
                     value.type.name + "s (" + std::to_string(value.type.size()) + " bytes each), in '" + given + "'"};
  std::vector<std::byte> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// The bound buffer a --print or --out names.
BoundBuffer& find_buffer(std::vector<BoundBuffer>& buffers, const KernelReflection& k, const std::string& arg,
                         const std::string& given) {
  std::optional<uint32_t> index;
  if (const KernelArg* a = k.find_arg(arg)) index = a->index;
  else if (std::optional<uint64_t> n = parse_count(arg); n && *n < k.args.size()) index = static_cast<uint32_t>(*n);
  if (!index) throw UsageError{"'" + given + "': kernel '" + k.name + "' has no argument '" + arg + "'"};
  for (BoundBuffer& b : buffers)
    if (b.index == *index) return b;
  throw UsageError{"'" + given + "': " + describe_arg(k, *index) + " is not a buffer"};
}

std::string microseconds(double us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f us", us);
  return text;
}

// Ends the process at once after a wait timed out: the error printed,
// stdout and stderr flushed, then std::_Exit(1). Not `return 1`: that would
// destroy the Device (which then waits for the runaway work up to the timeout
// once more before leaking it) and run the atexit handlers and static
// destructors of the driver and the loader, which may wait for that work:
// Mesa's util_queue atexit handler joins its threads, one of which may be the
// one running the grid, and a GPU driver may wait for its queues to drain. A
// kernel that never ends would then hang the runner forever. std::_Exit runs
// none of that; the OS frees the memory, and the kernel driver tears down the
// GPU context (stopping the kernel) when the process's device files close.
[[noreturn]] void exit_after_timeout(const Error& e) {
  std::cout.flush();
  std::cerr << "vkcl-run: error: " << e.what() << "\n";
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(1);
}

// The part of a run that uses the device: build, set arguments, run, print.
int run_kernel(const CommandLine& cl, Device& device, const fs::path& input, bool is_source, const std::string& source) {
  Program program = is_source ? build_program(device, source, cl.input, cl.compile) : Program(device, input);
  const auto& kernels = program.reflection().kernels;
  if (std::none_of(kernels.begin(), kernels.end(), [&](const KernelReflection& k) { return k.name == cl.kernel; })) {
    std::string names;
    for (const KernelReflection& k : kernels) names += (names.empty() ? "" : ", ") + k.name;
    throw UsageError{"'" + cl.input + "' has no kernel '" + cl.kernel + "' (it has: " + (names.empty() ? "none" : names) + ")"};
  }
  Kernel kernel = program.kernel(cl.kernel);
  const KernelReflection& k = kernel.reflection();

  // Every argument set, and every --print and --out resolved, before the run.
  const std::vector<const ArgSpec*> specs = assign_args(cl, k);
  std::vector<BoundBuffer> buffers;
  for (uint32_t index = 0; index < specs.size(); ++index) {
    const ArgSpec& spec = *specs[index];
    try {
      if (const auto* scalar = std::get_if<ScalarValue>(&spec.value)) {
        kernel.set_arg_bytes(index, scalar->bytes);
      } else if (const auto* local = std::get_if<LocalValue>(&spec.value)) {
        kernel.set_local_arg(index, local->bytes);
      }
    } catch (const Error& e) {
      throw UsageError{"'" + spec.given + "': " + e.what()};
    }
    if (const auto* value = std::get_if<BufferValue>(&spec.value)) {
      std::vector<std::byte> initial = buffer_contents(*value, spec.given);
      Buffer buffer(device, initial.size());
      buffer.write(initial);
      kernel.set_arg(index, buffer);
      buffers.push_back({index, value->type, std::move(initial), std::move(buffer)});
    }
  }
  for (const PrintSpec& print : cl.prints) {
    const BoundBuffer& b = find_buffer(buffers, k, print.arg, print.given);
    const uint64_t elements = b.initial.size() / b.type.size();
    if (print.count && *print.count > elements)
      throw UsageError{"'" + print.given + "': the buffer has " + std::to_string(elements) + " " + b.type.name + " element(s)"};
  }
  for (const OutputSpec& out : cl.outputs) find_buffer(buffers, k, out.arg, out.given);

  NDRange range;
  range.dims = static_cast<uint32_t>(cl.global.size());
  std::copy(cl.global.begin(), cl.global.end(), range.global.begin());
  std::copy(cl.local.begin(), cl.local.end(), range.local.begin());
  std::copy(cl.offset.begin(), cl.offset.end(), range.offset.begin());
  CommandList commands(device);
  commands.enqueue(kernel, range);  // limits: a device error (exit 1), not a usage error

  std::vector<double> run_us;
  for (uint32_t r = 0; r < std::max(cl.repeat, 1u); ++r) {
    if (r > 0)
      for (BoundBuffer& b : buffers) b.buffer.write(b.initial);
    Event event = device.submit(commands, {.timestamps = cl.repeat > 0});
    event.wait();
    if (cl.repeat > 0) run_us.push_back(static_cast<double>(event.kernel_times().at(0).duration().count()) / 1000.0);
  }

  for (const PrintSpec& print : cl.prints) {
    BoundBuffer& b = find_buffer(buffers, k, print.arg, print.given);
    const uint64_t count = print.count.value_or(b.initial.size() / b.type.size());
    std::vector<std::byte> bytes(count * b.type.size());
    b.buffer.read(bytes);
    const std::string& name = k.args[b.index].name;
    std::cout << (name.empty() ? print.arg : name) << "[0:" << count << "]: " << format_elements(b.type, bytes, count) << "\n";
  }
  for (const OutputSpec& out : cl.outputs) {
    BoundBuffer& b = find_buffer(buffers, k, out.arg, out.given);
    std::vector<std::byte> bytes(b.initial.size());
    b.buffer.read(bytes);
    std::ofstream file(out.path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!file) throw Error("cannot write '" + out.path + "' (" + out.given + ")");
    const std::string& name = k.args[b.index].name;
    std::cout << (name.empty() ? out.arg : name) << ": " << bytes.size() << " bytes written to " << out.path << "\n";
  }
  if (!run_us.empty()) {
    std::vector<double> sorted = run_us;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    std::cout << "gpu time: median " << microseconds(median) << ", min " << microseconds(sorted.front()) << ", max "
              << microseconds(sorted.back()) << " (" << n << " run" << (n == 1 ? "" : "s") << ")\n";
  }
  // Only there with VKCL_PIPELINE_STATISTICS=1, on a device that has them.
  for (const std::string& line : program.pipeline_statistics()) std::cout << "pipeline: " << line << "\n";
  return 0;
}

int run(int argc, char** argv) {
  const CommandLine cl = parse_command_line(argc, argv);
  if (cl.help) {
    std::cout << kUsage;
    return 0;
  }
  if (cl.list_devices) {
    // Numbered as --device and VKCL_DEVICE count them, each with what it offers.
    const std::vector<DeviceInfo> devices = Device::list();
    for (const DeviceInfo& info : devices) std::cout << info.describe() << (info.describe().ends_with('\n') ? "" : "\n");
    if (devices.empty()) std::cout << "no Vulkan devices\n";
    return 0;
  }

  const fs::path input = cl.input;
  const bool is_source = input.extension() == ".cl";
  if (!is_source && input.extension() != ".spv")
    throw UsageError{"input '" + cl.input + "' is neither OpenCL C (.cl) nor SPIR-V from clc (.spv)"};
  if (!is_source && !cl.compile_flags.empty())
    throw UsageError{"'" + cl.compile_flags.front() + "' applies only to .cl input, and '" + cl.input + "' is SPIR-V"};
  std::string source;
  if (is_source) {
    source = read_file(input, "the kernel source");
  } else {
    read_file(input, "the module");  // a usage error for a missing file, before any device work
    read_file(input.string() + ".reflection", "the reflection clc writes beside the module");
  }
  for (const OutputSpec& out : cl.outputs) {
    const fs::path parent = fs::path(out.path).parent_path();
    std::error_code error;
    if (fs::is_directory(out.path, error)) throw UsageError{"'" + out.given + "': '" + out.path + "' is a directory"};
    if (!parent.empty() && !fs::is_directory(parent, error))
      throw UsageError{"'" + out.given + "': no directory '" + parent.string() + "'"};
  }

  DeviceOptions options;
  options.selector = cl.device;
  if (cl.timeout_ms) options.timeout = std::chrono::milliseconds(*cl.timeout_ms);
  Device device = Device::create(options);
  std::cout << "device: " << device.describe() << std::endl;

  try {
    return run_kernel(cl, device, input, is_source, source);
  } catch (const Error& e) {
    // Before `device` goes (see exit_after_timeout).
    if (e.result() == VK_TIMEOUT) exit_after_timeout(e);
    throw;
  }
}

}  // namespace
}  // namespace vkcl::run

int main(int argc, char** argv) {
  try {
    return vkcl::run::run(argc, argv);
  } catch (const vkcl::run::UsageError& e) {
    std::cerr << "vkcl-run: error: " << e.message << "\n";
    return 2;
  } catch (const vkcl::CompileError& e) {
    std::string text = e.what();
    if (!text.empty() && text.back() != '\n') text += '\n';
    std::cerr << text;
  } catch (const vkcl::Error& e) {
    std::cerr << "vkcl-run: error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "vkcl-run: error: internal error: " << e.what() << "\n";
  }
  return 1;
}
