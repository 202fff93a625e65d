#include "vkcl_side.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <regex>

namespace vkcl::corpus {

namespace fs = std::filesystem;

CompileOptions compile_options(const KernelSpec& spec) {
  CompileOptions options;
  options.cl_std = spec.cl_std == "CL3.0" ? OpenCLStd::CL3_0 : spec.cl_std == "CL2.0" ? OpenCLStd::CL2_0 : OpenCLStd::CL1_2;
  options.defines = spec.defines;
  return options;
}

std::string relative_name(const fs::path& file, const fs::path& source_dir) {
  return fs::relative(file, source_dir).generic_string();
}

std::string classify_compile_error(const std::string& message) {
  static const std::regex located(R"((^|\n)[^\s:]+:[0-9]+:[0-9]+: error: )");
  if (message.rfind("internal error", 0) == 0 || message.find("\ninternal error") != std::string::npos)
    return "internal-error";
  return std::regex_search(message, located) ? "compile-error" : "compile-error-noloc";
}

namespace {

// The runs after the checked one, on the same arguments, each after
// `restore_outputs()`.
template <typename Restore>
void time_runs(Device& device, const Kernel& kernel, const NDRange& range, int runs, Side& side, Restore restore_outputs) {
  try {
    CommandList commands(device);
    commands.enqueue(kernel, range);
    // A GPU idle while the inputs were made runs its first kernels at a low
    // clock: on the H100 a transpose took 0.94 ms cold and 0.30 ms warm.
    const auto warm_up_start = std::chrono::steady_clock::now();
    for (int w = 0; w < kWarmUp.min_runs || std::chrono::steady_clock::now() - warm_up_start < kWarmUp.min_time; ++w) {
      restore_outputs();  // a kernel that updates its outputs in place stays inside them
      device.submit(commands).wait();
    }
    for (int i = 0; i < runs; ++i) {
      restore_outputs();
      Event event = device.submit(commands, {.timestamps = true});
      side.times_ms.push_back(std::chrono::duration<double, std::milli>(event.kernel_times().at(0).duration()).count());
    }
  } catch (const Error& e) {
    side.timing_error = e.what();
  }
}

}  // namespace

Side run_vkcl(Device& device, const KernelSpec& spec, const fs::path& source_dir, int timed_runs) {
  Side side;
  std::optional<Program> program;
  try {
    program.emplace(build_program(device, read_file(spec.file), relative_name(spec.file, source_dir), compile_options(spec)));
  } catch (const CompileError& e) {
    side.status = classify_compile_error(e.what());
    side.detail = e.what();
    return side;
  } catch (const Error& e) {
    const std::string message = e.what();
    side.status = message.find("without the compiler") != std::string::npos ? "no-module"
                  : message.find("the module needs features") != std::string::npos ? "vkcl-unsupported"
                                                                                     : "run-error";
    side.detail = message;
    return side;
  }
  try {
    Kernel kernel = program->kernel(spec.kernel);
    const KernelReflection& reflection = kernel.reflection();
    if (reflection.args.size() != spec.args.size()) {
      side.status = "spec-error";
      side.detail = "the header describes " + std::to_string(spec.args.size()) + " arguments, the kernel has " +
                    std::to_string(reflection.args.size());
      return side;
    }
    std::vector<std::optional<Buffer>> buffers(spec.args.size());  // each with guards around it
    std::vector<std::pair<uint32_t, std::vector<std::byte>>> initial_outputs;  // the checked buffers' first contents
    for (uint32_t i = 0; i < spec.args.size(); ++i) {
      const Arg& arg = spec.args[i];
      const KernelArg& reflected = reflection.args[i];
      if (!reflected.name.empty() && reflected.name != arg.name) {
        side.status = "spec-error";
        side.detail = "argument " + std::to_string(i) + " is '" + reflected.name + "' in the kernel, '" + arg.name +
                      "' in the header";
        return side;
      }
      if (arg.is_buffer()) {
        std::vector<std::byte> whole = guarded(arg);
        buffers[i].emplace(device, whole.size());
        buffers[i]->write(whole);
        kernel.set_arg(i, buffers[i]->view(kGuardBytes, arg.bytes()));
        const bool checked = std::any_of(spec.checks.begin(), spec.checks.end(), [&](const Check& c) { return c.arg == arg.name; });
        if (checked && timed_runs > 0)
          initial_outputs.emplace_back(i, std::vector<std::byte>(whole.begin() + kGuardBytes, whole.end() - kGuardBytes));
      } else if (arg.kind == ArgKind::Local) {
        kernel.set_local_arg(i, arg.bytes());
      } else {
        std::vector<std::byte> bytes = scalar_bytes(arg);
        kernel.set_arg_bytes(i, bytes);
      }
    }
    NDRange range;
    range.dims = spec.dims;
    range.global = spec.global;
    range.offset = spec.offset;
    if (spec.has_local) range.local = spec.local;
    device.run(kernel, range);
    for (uint32_t i = 0; i < spec.args.size(); ++i) {
      if (!buffers[i]) continue;
      std::vector<std::byte> whole(buffers[i]->size());
      buffers[i]->read(whole);
      std::string overrun = check_guards(spec.args[i], whole);
      if (!overrun.empty()) side.overrun += (side.overrun.empty() ? "" : "; ") + overrun;
      if (std::any_of(spec.checks.begin(), spec.checks.end(), [&](const Check& c) { return c.arg == spec.args[i].name; }))
        side.outputs[spec.args[i].name].assign(whole.begin() + kGuardBytes, whole.end() - kGuardBytes);
    }
    side.status = "ok";
    if (timed_runs > 0)
      time_runs(device, kernel, range, timed_runs, side, [&] {
        for (const auto& [index, bytes] : initial_outputs) buffers[index]->write(bytes, kGuardBytes);
      });
  } catch (const Error& e) {
    side.detail = e.what();
    // Program::kernel's refusal of an intel_reqd_sub_group_size the device cannot require.
    side.status = side.detail.find("(intel_reqd_sub_group_size), but") != std::string::npos ? "vkcl-unsupported"
                                                                                             : "run-error";
  } catch (const SpecError& e) {
    side.status = "spec-error";
    side.detail = e.what();
  }
  return side;
}

}  // namespace vkcl::corpus
