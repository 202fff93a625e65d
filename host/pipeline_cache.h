// The opt-in on-disk VkPipelineCache (DeviceOptions::pipeline_cache_dir or
// VKCL_PIPELINE_CACHE=<dir>).
//
// One file per device and driver in the directory, named by vendorID,
// deviceID, driverVersion and pipelineCacheUUID, holding a vkcl envelope
// (magic, the same four keys, the data's size and FNV-1a checksum) around
// what vkGetPipelineCacheData returned. A file is handed to the driver only
// when the envelope and the Vulkan header inside it (VkPipelineCacheHeaderVersionOne:
// header size and version, vendorID, deviceID, pipelineCacheUUID) all match
// this device: the spec lets an application pass only data that came from a
// compatible cache, and a driver need not survive anything else. A
// truncated, corrupt or foreign file is ignored (status() says why) and
// replaced at the next save. Saves write a temporary file beside the cache
// and rename it over, so a reader, another process included, sees the old
// file or the new one, never a part. Concurrent writers: the last rename wins.
#pragma once

#include <volk.h>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "vkcl/device.h"

namespace vkcl::detail {

struct DeviceState;

class PipelineCache {
 public:
  // Loads `<dir>/<file_name(properties)>` if it is there and valid, and
  // creates the VkPipelineCache. Throws Error only when `dir` cannot be
  // created or the Vulkan call fails; `setting` names where `dir` came from.
  PipelineCache(DeviceState& device, const std::filesystem::path& dir, const std::string& setting);
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;
  // Saves (when pipelines were created since the last save; a failure is a
  // warning on stderr, a destructor cannot throw) and destroys the cache.
  ~PipelineCache();

  VkPipelineCache handle() const { return cache_; }
  // After each vkCreateComputePipelines through handle(): `hit` as the
  // driver's creation feedback reported it.
  void created_pipeline(bool hit);
  // Writes the file now. Throws Error naming the file when it cannot.
  void save();
  const PipelineCacheStatus& status() const { return status_; }

  static std::string file_name(const VkPhysicalDeviceProperties& properties);
  // Why `file` may not be given to a device with `properties`; empty when it
  // may. On success `data` is the Vulkan cache data inside the envelope.
  static std::string check(std::span<const std::byte> file, const VkPhysicalDeviceProperties& properties,
                           std::span<const std::byte>& data);
  // The file contents for Vulkan cache `data` of a device with `properties`.
  static std::vector<std::byte> envelope(std::span<const std::byte> data, const VkPhysicalDeviceProperties& properties);

 private:
  DeviceState& device_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  bool dirty_ = false;
  PipelineCacheStatus status_;
};

}  // namespace vkcl::detail
