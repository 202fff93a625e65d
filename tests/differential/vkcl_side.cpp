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

// The timed runs after the checked one, on the same arguments, back to back
// in one submission: before each, the checked outputs are copied back from
// pristine copies on the device, so the GPU never waits for the host between
// runs and its clock stays where the work puts it (on the H100, restores
// from the host between runs left type_float_arith at 0.067 ms in one run of
// the benchmark and 0.129 ms in another). The OpenCL side does the same
// (opencl_reference.cpp). The warm-up is that submission, untimed.
void time_runs(Device& device, const Kernel& kernel, const NDRange& range, int runs, Side& side,
               const std::vector<std::pair<Buffer, Buffer>>& restores) {
  try {
    CommandList commands(device);
    for (int i = 0; i < runs; ++i) {
      for (const auto& [pristine, output] : restores) commands.copy(pristine, output);
      commands.enqueue(kernel, range);
    }
    const auto warm_up_start = std::chrono::steady_clock::now();
    for (int w = 0; w < kWarmUp.min_runs || std::chrono::steady_clock::now() - warm_up_start < kWarmUp.min_time; ++w)
      device.submit(commands).wait();
    Event event = device.submit(commands, {.timestamps = true});
    for (const KernelTime& time : event.kernel_times())
      side.times_ms.push_back(std::chrono::duration<double, std::milli>(time.duration()).count());
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
    std::vector<std::pair<Buffer, Buffer>> restores;  // the checked buffers' first contents, and the buffers
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
        if (checked && timed_runs > 0) {
          Buffer pristine(device, arg.bytes());
          pristine.write(std::span(whole).subspan(kGuardBytes, arg.bytes()));
          restores.emplace_back(std::move(pristine), buffers[i]->view(kGuardBytes, arg.bytes()));
        }
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
    if (timed_runs > 0) time_runs(device, kernel, range, timed_runs, side, restores);
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
