#include "twin_path.h"

#include <stdexcept>
#include <vector>

#include "raw_objects.h"

namespace vkcl::bench {
namespace {

// Why a device of its own rather than vkcl's: the twin must not inherit
// anything of vkcl's runtime (its features, memory choices, buffer usage
// flags, pipeline cache), and vkcl's public API hands out no VkDevice or
// VkBuffer to bind in a descriptor set anyway. The cost is that its buffers
// are other allocations than the ones vkcl and twin_bda share, at other
// addresses; on lavapipe where a buffer lands moves a transpose by more than
// its code does (docs/benchmarks.md), so "vs twin_bda" separates code from placement
// there. Memory is device-local, written and read through staging buffers,
// as for any discrete GPU.
constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// One workload on the twin path: its buffers, pipeline, descriptor set, and
// a command buffer recorded once (dispatch between two timestamps) that each
// run submits again, as vkcl's CommandList does.
class TwinTrial : public Trial {
 public:
  TwinTrial(std::shared_ptr<RawDevice> device, const std::string& spv, const std::string& entry, const Case& c)
      : device_(std::move(device)), case_(c), transfers_(*device_), kernel_(*device_), timer_(*device_) {
    const RawDevice& d = *device_;
    for (const BufferSpec& spec : c.buffers) {
      // A descriptor reaches at most this far (128 MiB on lavapipe, so not its --size large).
      if (spec.bytes > d.properties().limits.maxStorageBufferRange)
        throw std::runtime_error("buffer '" + spec.name + "' has " + std::to_string(spec.bytes) +
                                 " bytes, over the device's maxStorageBufferRange (" +
                                 std::to_string(d.properties().limits.maxStorageBufferRange) + ")");
      buffers_.push_back(make_buffer(d, spec.bytes, kStorage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
      upload(d, transfers_, buffers_.back(), spec.input);
    }
    // The shaders' convention: binding k is the k-th buffer argument, scalar k is at push-constant offset 4k.
    std::vector<VkDescriptorBufferInfo> bound;
    std::vector<uint32_t> scalars;
    for (const Arg& arg : c.args) {
      if (arg.buffer >= 0) bound.push_back({buffers_.at(arg.buffer).buffer.get(), 0, VK_WHOLE_SIZE});
      else scalars.push_back(arg.value);
    }
    const uint32_t bindings = uint32_t(bound.size()), push_bytes = uint32_t(scalars.size() * 4);
    set_layout_ = make_storage_set_layout(d, bindings);
    layout_ = make_pipeline_layout(d, set_layout_.get(), push_bytes);
    pipeline_ = make_compute_pipeline(d, spv, entry.c_str(), layout_.get());

    descriptors_ = make_storage_descriptor_set(d, set_layout_.get(), bound);
    const VkDescriptorSet set = descriptors_.set;

    VkCommandBuffer cb = kernel_.begin();
    timer_.reset(cb);
    // Earlier submissions' writes (uploads, zeroing) become visible to the shader.
    memory_barrier(d, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    // BOTTOM_OF_PIPE on both sides, as vkcl stamps its kernels.
    timer_.stamp(cb, 0, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    d.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
    d.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set, 0, nullptr);
    if (push_bytes) d.vk.vkCmdPushConstants(cb, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, scalars.data());
    d.vk.vkCmdDispatch(cb, uint32_t(c.global[0] / c.local[0]), uint32_t(c.global[1] / c.local[1]),
                       uint32_t(c.global[2] / c.local[2]));
    timer_.stamp(cb, 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    // For the zeroing and the read-back that follow.
    memory_barrier(d, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    kernel_.end();
  }

  double run_once() override {
    VkCommandBuffer cb = transfers_.begin();
    for (size_t b = 0; b < buffers_.size(); ++b)
      if (case_.buffers[b].output()) device_->vk.vkCmdFillBuffer(cb, buffers_[b].buffer.get(), 0, VK_WHOLE_SIZE, 0);
    transfers_.end();
    transfers_.submit_and_wait();
    kernel_.submit_and_wait();
    return timer_.elapsed_ms();
  }

  std::vector<std::vector<std::byte>> read_outputs() override {
    std::vector<std::vector<std::byte>> contents(buffers_.size());
    for (size_t b = 0; b < buffers_.size(); ++b)
      if (case_.buffers[b].output()) contents[b] = download(*device_, transfers_, buffers_[b], case_.buffers[b].bytes);
    return contents;
  }

 private:
  std::shared_ptr<RawDevice> device_;  // first: outlives everything below
  const Case& case_;
  std::vector<RawBuffer> buffers_;  // in Case::buffers order
  RawCommands transfers_, kernel_;
  RawTimer timer_;
  UniqueSetLayout set_layout_;
  UniquePipelineLayout layout_;
  UniquePipeline pipeline_;
  StorageDescriptorSet descriptors_;
};

class TwinPath : public Path {
 public:
  TwinPath(std::string device_name, std::string twin_dir) : device_name_(std::move(device_name)), dir_(std::move(twin_dir)) {}

  std::string name() const override { return "twin"; }
  std::string describe() const override {
    return device_name_ +
           "; GLSL twins with descriptor-bound storage buffers and push constants, plain Vulkan on a VkDevice of their own, "
           "GPU time from Vulkan timestamps";
  }

  Prepared prepare(const Workload& workload, const Case& c) override {
    std::unique_ptr<Trial> trial;
    try {
      // Made at the first workload, so a run that skips the twins opens no device.
      if (!device_) device_ = std::make_shared<RawDevice>(device_name_, RawFeatures{.memory_model = true});
      trial = std::make_unique<TwinTrial>(device_, dir_ + "/" + workload.name + ".spv", workload.name, c);
    } catch (const std::exception& e) {
      return {{"run error", e.what(), {}, {}}, nullptr};
    }
    return verify_first_run(c, std::move(trial));
  }

 private:
  std::string device_name_, dir_;
  std::shared_ptr<RawDevice> device_;
};

}  // namespace

std::unique_ptr<Path> make_twin_path(std::string device_name, std::string twin_dir) {
  return std::make_unique<TwinPath>(std::move(device_name), std::move(twin_dir));
}

}  // namespace vkcl::bench
