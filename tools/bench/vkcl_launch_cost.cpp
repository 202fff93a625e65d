// vkcl_launch_cost (launch_cost.h): the launch-cost dispatches through vkcl's runtime.
#include <chrono>
#include <optional>

#include "launch_cost.h"
#include "vkcl/host.h"
#include "vkcl/source_program.h"

namespace vkcl::bench {

LaunchCost vkcl_launch_cost(Device& device, const std::string& source_root, int dispatches, int repeat) {
  using Clock = std::chrono::steady_clock;
  LaunchCost row{"vkcl: set_arg x5 + CommandList::enqueue"};
  try {
    const std::string file = "shaders/bench/launch.cl";  // named so in the module cache key on every machine
    CompileOptions options;
    options.cl_std = OpenCLStd::CL1_2;
    std::optional<Program> program;
    try {
      program.emplace(build_program(device, read_text(source_root + "/" + file), file, options));
    } catch (const std::exception& e) {
      row.record = row.submit = row.gpu = RunResult{"compile error", e.what(), {}};
      return row;
    }
    Kernel kernel = program->kernel("launch");
    const uint32_t words = launch_words(dispatches);
    std::vector<Buffer> inputs, outputs;
    for (uint32_t j = 0; j < kLaunchPool; ++j) {
      inputs.emplace_back(device, 4);
      inputs.back().write(std::vector<uint32_t>{1u << j});
      outputs.emplace_back(device, words * 4);
    }
    const NDRange one = NDRange::make({1}, {1});
    // Round 0 is checked, not timed.
    for (int round = 0; round <= repeat; ++round) {
      if (round == 0)
        for (Buffer& out : outputs) out.fill(uint32_t(0));
      const auto start = Clock::now();
      CommandList list(device);
      for (uint32_t i = 0; i < uint32_t(dispatches); ++i) {
        const LaunchArguments a = launch_arguments(i);
        kernel.set_arg(0, inputs[a.a]);
        kernel.set_arg(1, inputs[a.b]);
        kernel.set_arg(2, inputs[a.c]);
        kernel.set_arg(3, outputs[a.d]);
        kernel.set_arg(4, a.slot);
        list.enqueue(kernel, one);
      }
      const auto enqueued = Clock::now();
      device.submit(list).wait();
      const auto done = Clock::now();
      if (round == 0) {
        std::vector<std::vector<std::byte>> written;
        for (const Buffer& out : outputs) written.push_back(out.read<std::byte>(words * 4));
        if (std::string wrong = check_launch_outputs(written, dispatches); !wrong.empty()) {
          row.record = row.submit = row.gpu = RunResult{"wrong result", wrong, {}};
          return row;
        }
        continue;
      }
      row.record.samples.push_back(std::chrono::duration<double, std::micro>(enqueued - start).count() / dispatches);
      row.submit.samples.push_back(std::chrono::duration<double, std::micro>(done - enqueued).count() / dispatches);
    }
  } catch (const std::exception& e) {
    row.record = row.submit = row.gpu = RunResult{"run error", e.what(), {}};
    return row;
  }
  row.gpu = RunResult{"n/a", "vkcl puts a barrier between kernels; no timestamps taken", {}};
  return row;
}

}  // namespace vkcl::bench
