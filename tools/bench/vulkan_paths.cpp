#include "vulkan_paths.h"

#include <chrono>
#include <optional>

#include "vkcl/host.h"
#include "vkcl/source_program.h"

namespace vkcl::bench {
namespace {

using Buffers = std::vector<Buffer>;

// The buffers of the workload being measured, one set for both paths on
// vkcl's runtime, so that the kernel and its twin_bda run on the same
// memory: on lavapipe, where the buffers land (their addresses modulo the
// cache's set stride) moves a transpose's time by more than the code does.
// The set lives as long as a trial holds it.
class SharedBuffers {
 public:
  explicit SharedBuffers(std::shared_ptr<Device> device) : device_(std::move(device)) {}

  // The inputs are written once: kernels only read them, and each run zeroes the outputs.
  std::shared_ptr<Buffers> get(const std::string& workload, const Case& c) {
    if (auto held = held_.lock(); held && workload == workload_) return held;
    auto buffers = std::make_shared<Buffers>();
    for (const BufferSpec& spec : c.buffers) {
      buffers->emplace_back(*device_, spec.bytes);
      if (!spec.output()) buffers->back().write(spec.input);
    }
    held_ = buffers;
    workload_ = workload;
    return buffers;
  }

 private:
  std::shared_ptr<Device> device_;
  std::weak_ptr<Buffers> held_;
  std::string workload_;
};

class VulkanTrial : public Trial {
 public:
  VulkanTrial(std::shared_ptr<Device> device, Program program, const std::string& name, const Case& c,
              std::shared_ptr<Buffers> buffers)
      : device_(std::move(device)), program_(std::move(program)), kernel_(program_.kernel(name)), case_(c),
        buffers_(std::move(buffers)), commands_(*device_) {
    for (uint32_t i = 0; i < c.args.size(); ++i) {
      if (c.args[i].buffer >= 0) kernel_.set_arg(i, buffers_->at(c.args[i].buffer));
      else kernel_.set_arg(i, c.args[i].value);
    }
    commands_.enqueue(kernel_, NDRange{c.dims, c.global, c.local});
  }

  double run_once() override {
    for (size_t b = 0; b < buffers_->size(); ++b)
      if (case_.buffers[b].output()) (*buffers_)[b].fill(uint32_t(0));
    Event event = device_->submit(commands_, {.timestamps = true});
    return std::chrono::duration<double, std::milli>(event.kernel_times().at(0).duration()).count();
  }

  std::vector<std::vector<std::byte>> read_outputs() override {
    std::vector<std::vector<std::byte>> contents(buffers_->size());
    for (size_t b = 0; b < buffers_->size(); ++b)
      if (case_.buffers[b].output()) contents[b] = (*buffers_)[b].read<std::byte>(case_.buffers[b].bytes);
    return contents;
  }

  std::vector<std::string> notes() const override { return program_.pipeline_statistics(); }

 private:
  std::shared_ptr<Device> device_;
  Program program_;
  Kernel kernel_;
  const Case& case_;
  std::shared_ptr<Buffers> buffers_;
  CommandList commands_;
};

class VulkanPath : public Path {
 public:
  VulkanPath(bool twin, std::shared_ptr<Device> device, std::string dir, std::shared_ptr<SharedBuffers> buffers)
      : twin_(twin), device_(std::move(device)), dir_(std::move(dir)), buffers_(std::move(buffers)) {}

  std::string name() const override { return twin_ ? "twin_bda" : "vkcl"; }
  std::string describe() const override {
    return device_->describe() +
           (twin_ ? "; GLSL twins in vkcl's ABI (buffer references), run by vkcl's runtime" : "; OpenCL C through vkcl") +
           ", GPU time from Vulkan timestamps";
  }

  Prepared prepare(const Workload& workload, const Case& c) override {
    std::optional<Program> program;
    try {
      program.emplace(twin_ ? Program(*device_, dir_ + "/" + workload.name + ".spv") : build(workload.name, workload.needs_sub_groups));
    } catch (const std::exception& e) {
      return {{twin_ ? "load error" : "compile error", e.what(), {}, {}}, nullptr};
    }
    std::unique_ptr<Trial> trial;
    try {
      trial = std::make_unique<VulkanTrial>(device_, std::move(*program), workload.name, c, buffers_->get(workload.name, c));
    } catch (const std::exception& e) {
      return {{"run error", e.what(), {}, {}}, nullptr};
    }
    return verify_first_run(c, std::move(trial));
  }

  // Device::run of shaders/bench/empty.cl: argument snapshot, recording,
  // submission and the wait, all on the host clock.
  std::optional<RunResult> dispatch_overhead(int repeat) override {
    if (twin_) return std::nullopt;
    RunResult result;
    try {
      Program program = build("empty", false);
      Kernel kernel = program.kernel("empty");
      const NDRange one = NDRange::make({1}, {1});
      for (int i = 0; i < 10; ++i) device_->run(kernel, one);  // pipelines built, caches warm
      for (int i = 0; i < repeat; ++i) {
        auto start = std::chrono::steady_clock::now();
        device_->run(kernel, one);
        result.samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
      }
    } catch (const std::exception& e) {
      return RunResult{"run error", e.what(), {}};
    }
    return result;
  }

 private:
  // The module cache key covers the file name, so it is the same relative
  // name on every machine.
  Program build(const std::string& name, bool sub_groups) {
    const std::string file = "shaders/bench/" + name + ".cl";
    CompileOptions options;
    options.cl_std = sub_groups ? OpenCLStd::CL2_0 : OpenCLStd::CL1_2;
    return build_program(*device_, read_text(dir_ + "/" + file), file, options);
  }

  bool twin_;
  std::shared_ptr<Device> device_;
  std::string dir_;  // the repository root (vkcl) or the BDA twins' build directory (twin_bda)
  std::shared_ptr<SharedBuffers> buffers_;
};

}  // namespace

std::vector<std::unique_ptr<Path>> make_vulkan_paths(std::shared_ptr<Device> device, std::string source_root,
                                                     std::optional<std::string> bda_twin_dir) {
  auto buffers = std::make_shared<SharedBuffers>(device);
  std::vector<std::unique_ptr<Path>> paths;
  paths.push_back(std::make_unique<VulkanPath>(false, device, std::move(source_root), buffers));
  if (bda_twin_dir) paths.push_back(std::make_unique<VulkanPath>(true, device, std::move(*bda_twin_dir), buffers));
  return paths;
}

}  // namespace vkcl::bench
