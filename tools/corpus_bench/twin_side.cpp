#include "twin_side.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "bench/raw_objects.h"

namespace vkcl::corpus_bench {
namespace {

using bench::check_vk;
using bench::RawBuffer;
using bench::RawDevice;

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

bool is_checked(const corpus::KernelSpec& spec, const corpus::Arg& arg) {
  return std::any_of(spec.checks.begin(), spec.checks.end(), [&](const corpus::Check& c) { return c.arg == arg.name; });
}

// The scalars' bytes as the twin's push-constant block lays them out.
std::vector<std::byte> push_constants(const corpus::KernelSpec& spec) {
  std::vector<std::byte> bytes;
  for (const corpus::Arg& arg : spec.args) {
    if (arg.kind != corpus::ArgKind::Scalar) continue;
    if (arg.type.width != 1) throw corpus::SpecError("scalar argument '" + arg.name + "' is a vector: twins take scalars only");
    const std::vector<std::byte> value = corpus::scalar_bytes(arg);
    bytes.resize((bytes.size() + value.size() - 1) / value.size() * value.size());  // aligned to its size
    bytes.insert(bytes.end(), value.begin(), value.end());
  }
  bytes.resize((bytes.size() + 3) / 4 * 4);  // push-constant ranges are whole words
  return bytes;
}

// Everything one twin run needs, made once.
class Twin {
 public:
  Twin(const RawDevice& device, const corpus::KernelSpec& spec, const std::string& spv, std::array<uint32_t, 3> local)
      : device_(device), spec_(spec), transfers_(device) {
    if (spec.has_offset) throw corpus::SpecError("a global offset: twins have none");
    for (uint32_t d = 0; d < 3; ++d) {
      const uint64_t global = d < spec.dims ? spec.global[d] : 1;
      if (local[d] == 0 || global % local[d] != 0)
        throw corpus::SpecError("global size " + std::to_string(global) + " is not a multiple of the local size " +
                                std::to_string(local[d]) + " in dimension " + std::to_string(d) +
                                ": a twin runs whole work-groups");
      groups_[d] = uint32_t(global / local[d]);
    }
    const VkDeviceSize max_range = device.properties().limits.maxStorageBufferRange;
    std::vector<VkDescriptorBufferInfo> bound;
    for (const corpus::Arg& arg : spec.args) {
      // A __local argument's memory is the twin's own shared array.
      if (!arg.is_buffer()) continue;
      if (arg.bytes() > max_range)
        throw std::runtime_error("buffer '" + arg.name + "' has " + std::to_string(arg.bytes()) +
                                 " bytes, over the device's maxStorageBufferRange (" + std::to_string(max_range) + ")");
      buffers_.push_back(bench::make_buffer(device, arg.bytes(), kStorage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
      const std::vector<std::byte> contents = corpus::generate(arg);
      bench::upload(device, transfers_, buffers_.back(), contents);
      if (is_checked(spec, arg)) {
        RawBuffer pristine = bench::make_buffer(device, arg.bytes(), kStorage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        bench::upload(device, transfers_, pristine, contents);
        restores_.push_back({std::move(pristine), buffers_.size() - 1, arg.bytes()});
      }
      bound.push_back({buffers_.back().buffer.get(), 0, VK_WHOLE_SIZE});
    }
    push_ = push_constants(spec);

    const uint32_t bindings = uint32_t(bound.size());
    set_layout_ = bench::make_storage_set_layout(device, bindings);
    layout_ = bench::make_pipeline_layout(device, set_layout_.get(), uint32_t(push_.size()));
    const VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
    const VkSpecializationInfo specialization{3, entries, sizeof local, local.data()};
    pipeline_ = bench::make_compute_pipeline(device, spv, "main", layout_.get(), 0, &specialization);

    if (bindings) descriptors_ = bench::make_storage_descriptor_set(device, set_layout_.get(), bound);
  }

  // The kernel, after earlier submissions' writes (uploads, restores) are visible to it.
  void record_dispatch(VkCommandBuffer cb, bench::RawTimer* timer, uint32_t run) const {
    bench::memory_barrier(device_, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (timer) timer->stamp(cb, 2 * run, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);  // as vkcl stamps its kernels
    device_.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
    if (descriptors_.set)
      device_.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &descriptors_.set, 0, nullptr);
    if (!push_.empty())
      device_.vk.vkCmdPushConstants(cb, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(push_.size()), push_.data());
    device_.vk.vkCmdDispatch(cb, groups_[0], groups_[1], groups_[2]);
    if (timer) timer->stamp(cb, 2 * run + 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    bench::memory_barrier(device_, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                              VK_ACCESS_SHADER_WRITE_BIT);
  }

  void run_once(corpus::Side& side) {
    bench::RawCommands commands(device_);
    record_dispatch(commands.begin(), nullptr, 0);
    commands.end();
    commands.submit_and_wait();
    size_t b = 0;
    for (const corpus::Arg& arg : spec_.args) {
      if (!arg.is_buffer()) continue;
      if (is_checked(spec_, arg)) side.outputs[arg.name] = bench::download(device_, transfers_, buffers_[b], arg.bytes());
      ++b;
    }
  }

  // As vkcl's side times its runs (tests/differential/vkcl_side.cpp): one
  // submission of `runs` runs, each after its restores, submitted untimed
  // until the warm-up's count and time are reached, then once more.
  std::vector<double> time_runs(uint32_t runs) {
    bench::RawTimer timer(device_, runs);
    bench::RawCommands commands(device_);
    VkCommandBuffer cb = commands.begin();
    timer.reset(cb);
    for (uint32_t r = 0; r < runs; ++r) {
      for (const Restore& restore : restores_) {
        const VkBufferCopy region{0, 0, restore.bytes};
        device_.vk.vkCmdCopyBuffer(cb, restore.pristine.buffer.get(), buffers_[restore.buffer].buffer.get(), 1, &region);
      }
      record_dispatch(cb, &timer, r);
    }
    commands.end();
    const auto start = std::chrono::steady_clock::now();
    for (int w = 0; w < corpus::kWarmUp.min_runs || std::chrono::steady_clock::now() - start < corpus::kWarmUp.min_time; ++w)
      commands.submit_and_wait();
    commands.submit_and_wait();
    return timer.all_elapsed_ms();
  }

 private:
  struct Restore {
    RawBuffer pristine;
    size_t buffer;  // index into buffers_
    VkDeviceSize bytes;
  };
  const RawDevice& device_;
  const corpus::KernelSpec& spec_;
  bench::RawCommands transfers_;
  std::vector<RawBuffer> buffers_;  // the buffer arguments, in order
  std::vector<Restore> restores_;
  std::vector<std::byte> push_;
  std::array<uint32_t, 3> groups_{1, 1, 1};
  bench::UniqueSetLayout set_layout_;
  bench::UniquePipelineLayout layout_;
  bench::UniquePipeline pipeline_;
  bench::StorageDescriptorSet descriptors_;
};

}  // namespace

corpus::Side run_glsl_twin(const RawDevice& device, const corpus::KernelSpec& spec, const std::string& spv,
                           std::array<uint32_t, 3> local, int timed_runs) {
  corpus::Side side;
  try {
    Twin twin(device, spec, spv, local);
    twin.run_once(side);
    side.status = "ok";
    if (timed_runs > 0) {
      try {
        side.times_ms = twin.time_runs(uint32_t(timed_runs));
      } catch (const std::exception& e) {
        side.timing_error = e.what();
      }
    }
  } catch (const corpus::SpecError& e) {
    side.status = "spec-error";
    side.detail = e.what();
  } catch (const std::exception& e) {
    side.status = "run-error";
    side.detail = e.what();
  }
  return side;
}

}  // namespace vkcl::corpus_bench
