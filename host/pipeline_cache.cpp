#include "pipeline_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "internal.h"

namespace vkcl::detail {
namespace {

// The envelope: magic, the keys of the device and driver that wrote it, then
// the Vulkan data's size and checksum. All little-endian host integers: a
// cache is only ever read on the machine (and driver) that wrote it.
constexpr char kMagic[8] = {'V', 'K', 'C', 'L', 'P', 'C', '0', '1'};
struct Envelope {
  char magic[8];
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t driver_version;
  uint32_t reserved;
  uint8_t uuid[VK_UUID_SIZE];
  uint64_t data_size;
  uint64_t checksum;
};
static_assert(sizeof(Envelope) == 56);

uint64_t fnv1a(std::span<const std::byte> data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (std::byte b : data) h = (h ^ uint64_t(b)) * 0x100000001b3ull;
  return h;
}

std::string hex(const uint8_t* bytes, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

std::string hex32(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "%x", v);
  return text;
}

}  // namespace

std::string PipelineCache::file_name(const VkPhysicalDeviceProperties& p) {
  return "vkcl-" + hex32(p.vendorID) + "-" + hex32(p.deviceID) + "-" + hex32(p.driverVersion) + "-" +
         hex(p.pipelineCacheUUID, VK_UUID_SIZE) + ".pipeline-cache";
}

std::string PipelineCache::check(std::span<const std::byte> file, const VkPhysicalDeviceProperties& p,
                                 std::span<const std::byte>& data) {
  Envelope e;
  if (file.size() < sizeof e)
    return "it has " + std::to_string(file.size()) + " bytes, fewer than vkcl's " + std::to_string(sizeof e) +
           "-byte header";
  std::memcpy(&e, file.data(), sizeof e);
  if (std::memcmp(e.magic, kMagic, sizeof kMagic) != 0) return "it is not a vkcl pipeline cache (bad magic)";
  if (e.vendor_id != p.vendorID || e.device_id != p.deviceID)
    return "it was written for vendor " + hex32(e.vendor_id) + " device " + hex32(e.device_id) + ", not vendor " +
           hex32(p.vendorID) + " device " + hex32(p.deviceID);
  if (e.driver_version != p.driverVersion)
    return "it was written by driver version " + hex32(e.driver_version) + ", not " + hex32(p.driverVersion);
  if (std::memcmp(e.uuid, p.pipelineCacheUUID, VK_UUID_SIZE) != 0)
    return "it was written for pipelineCacheUUID " + hex(e.uuid, VK_UUID_SIZE) + ", not " +
           hex(p.pipelineCacheUUID, VK_UUID_SIZE);
  std::span<const std::byte> body = file.subspan(sizeof e);
  if (e.data_size != body.size())
    return "its header promises " + std::to_string(e.data_size) + " bytes of data and " + std::to_string(body.size()) +
           " follow (truncated?)";
  if (fnv1a(body) != e.checksum) return "its checksum does not match its data (corrupt)";

  // The driver's own header, which the spec defines: the envelope could be
  // right around data some other driver wrote.
  VkPipelineCacheHeaderVersionOne h;
  if (body.size() < sizeof h)
    return "its Vulkan data has " + std::to_string(body.size()) + " bytes, fewer than a VkPipelineCacheHeaderVersionOne";
  std::memcpy(&h, body.data(), sizeof h);
  if (h.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE || h.headerSize < sizeof h || h.headerSize > body.size())
    return "its Vulkan header has version " + std::to_string(h.headerVersion) + " and size " +
           std::to_string(h.headerSize) + " (expected version 1, size 32 to " + std::to_string(body.size()) + ")";
  if (h.vendorID != p.vendorID || h.deviceID != p.deviceID ||
      std::memcmp(h.pipelineCacheUUID, p.pipelineCacheUUID, VK_UUID_SIZE) != 0)
    return "its Vulkan header names vendor " + hex32(h.vendorID) + " device " + hex32(h.deviceID) +
           " pipelineCacheUUID " + hex(h.pipelineCacheUUID, VK_UUID_SIZE) + ", not this device";
  data = body;
  return {};
}

std::vector<std::byte> PipelineCache::envelope(std::span<const std::byte> data, const VkPhysicalDeviceProperties& p) {
  Envelope e{};
  std::memcpy(e.magic, kMagic, sizeof kMagic);
  e.vendor_id = p.vendorID;
  e.device_id = p.deviceID;
  e.driver_version = p.driverVersion;
  std::memcpy(e.uuid, p.pipelineCacheUUID, VK_UUID_SIZE);
  e.data_size = data.size();
  e.checksum = fnv1a(data);
  std::vector<std::byte> file(sizeof e + data.size());
  std::memcpy(file.data(), &e, sizeof e);
  if (!data.empty()) std::memcpy(file.data() + sizeof e, data.data(), data.size());
  return file;
}

PipelineCache::PipelineCache(DeviceState& device, const std::filesystem::path& dir, const std::string& setting)
    : device_(device) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir))
    throw Error(setting + "='" + dir.string() + "': cannot create the pipeline cache directory" +
                (error ? ": " + error.message() : std::string(": not a directory")));
  status_.enabled = true;
  status_.file = dir / file_name(device.properties);

  std::vector<std::byte> contents;
  if (std::ifstream in{status_.file, std::ios::binary}) {
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
      status_.ignored = "it could not be read";
    else
      contents.assign(reinterpret_cast<const std::byte*>(chars.data()),
                      reinterpret_cast<const std::byte*>(chars.data()) + chars.size());
  }
  std::span<const std::byte> data;
  if (status_.ignored.empty() && std::filesystem::exists(status_.file, error))
    status_.ignored = check(contents, device.properties, data);

  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  detail::check(device.vk.vkCreatePipelineCache(device.device, &info, nullptr, &cache_), "vkCreatePipelineCache");
  status_.loaded_bytes = data.size();
  // A file that was ignored is replaced by a good one at the next save.
  dirty_ = !status_.ignored.empty();
}

void PipelineCache::created_pipeline(bool hit) {
  ++status_.pipelines_created;
  if (hit) ++status_.cache_hits;
  dirty_ = true;
}

void PipelineCache::save() {
  const auto& vk = device_.vk;
  size_t size = 0;
  detail::check(vk.vkGetPipelineCacheData(device_.device, cache_, &size, nullptr), "vkGetPipelineCacheData");
  std::vector<std::byte> data(size);
  VkResult result = vk.vkGetPipelineCacheData(device_.device, cache_, &size, data.data());
  detail::check(result == VK_INCOMPLETE ? VK_SUCCESS : result, "vkGetPipelineCacheData");
  data.resize(size);
  std::vector<std::byte> file = envelope(data, device_.properties);

  // Unique per process and call: two Devices or processes saving at once
  // must not write into each other's temporary file.
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path temporary = status_.file;
  temporary += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw Error("cannot write the pipeline cache " + temporary.string());
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, status_.file, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw Error("cannot rename " + temporary.string() + " to " + status_.file.string() + ": " + error.message());
  }
  status_.saved_bytes = data.size();
  dirty_ = false;
}

PipelineCache::~PipelineCache() {
  if (dirty_) {
    try {
      save();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "vkcl: the pipeline cache was not saved: %s\n", e.what());
    }
  }
  if (cache_) device_.vk.vkDestroyPipelineCache(device_.device, cache_, nullptr);
}

}  // namespace vkcl::detail
