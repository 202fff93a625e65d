// The device listing: every field of DeviceInfo against what Vulkan reports
// for the device in use, lavapipe's known values where it runs, and the text
// a runner's --list-devices prints.
#include <gtest/gtest.h>

#include <cstdlib>

#include "test_device.h"

namespace vkcl {
namespace {

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

bool is_lavapipe(const DeviceInfo& info) { return info.driver_name == "llvmpipe"; }

TEST(DeviceList, EntriesAreIndexedAndOneIsPreferred) {
  std::vector<DeviceInfo> infos = Device::list();
  ASSERT_FALSE(infos.empty());
  std::vector<std::string> lines = Device::available();
  ASSERT_EQ(lines.size(), infos.size());
  int preferred = 0;
  for (size_t i = 0; i < infos.size(); ++i) {
    EXPECT_EQ(infos[i].index, i);
    EXPECT_EQ(infos[i].summary(), lines[i]);
    EXPECT_FALSE(infos[i].name.empty());
    if (infos[i].preferred) {
      ++preferred;
      EXPECT_TRUE(infos[i].unusable.empty()) << infos[i].name;
    }
  }
  EXPECT_EQ(preferred, 1);
}

TEST(DeviceList, InfoMatchesTheDeviceInUse) {
  Device& device = test::device();
  DeviceInfo info = device.info();
  const VkPhysicalDeviceProperties& p = device.properties();
  EXPECT_EQ(info.name, p.deviceName);
  EXPECT_EQ(info.type, p.deviceType);
  EXPECT_EQ(info.vendor_id, p.vendorID);
  EXPECT_EQ(info.device_id, p.deviceID);
  EXPECT_EQ(info.api_version, p.apiVersion);
  EXPECT_EQ(info.driver_version, p.driverVersion);
  EXPECT_EQ(info.summary(), device.describe());
  EXPECT_TRUE(info.unusable.empty());
  EXPECT_EQ(Device::list()[info.index].name, info.name);
  if (!std::getenv("VKCL_DEVICE")) {
    EXPECT_TRUE(info.preferred);
  }

  const VkPhysicalDeviceLimits& l = p.limits;
  EXPECT_EQ(info.max_work_group_invocations, l.maxComputeWorkGroupInvocations);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(info.max_work_group_size[d], l.maxComputeWorkGroupSize[d]);
    EXPECT_EQ(info.max_work_group_count[d], l.maxComputeWorkGroupCount[d]);
  }
  EXPECT_EQ(info.max_shared_memory, l.maxComputeSharedMemorySize);
  EXPECT_EQ(info.max_push_constants, l.maxPushConstantsSize);
  EXPECT_EQ(info.max_storage_buffer_range, l.maxStorageBufferRange);
  EXPECT_EQ(info.min_storage_buffer_offset_alignment, l.minStorageBufferOffsetAlignment);
  EXPECT_EQ(info.timestamp_period, l.timestampPeriod);
  EXPECT_EQ(info.timestamp_compute_and_graphics, bool(l.timestampComputeAndGraphics));
  EXPECT_GE(info.max_allocation_size, uint64_t(1) << 30);  // Vulkan 1.1 requires at least 1 GiB

  // What the runtime enabled is what the listing says vkcl could enable.
  EXPECT_TRUE(missing_features(device.features(), info.features).empty());
  EXPECT_TRUE(missing_features(info.features, device.features()).empty());
  // Subgroups: the runtime's subgroup_basic follows the listed stages and operations.
  EXPECT_GT(info.subgroup_size, 0u);
  EXPECT_EQ(device.features().subgroup_basic, (info.subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                                                  (info.subgroup_operations & VK_SUBGROUP_FEATURE_BASIC_BIT));
  ASSERT_FALSE(info.heaps.empty());
  bool some_device_local = false;
  for (const MemoryHeapInfo& h : info.heaps) some_device_local |= h.device_local();
  EXPECT_TRUE(some_device_local);
}

TEST(DeviceList, LavapipeValues) {
  DeviceInfo info = test::device().info();
  if (!is_lavapipe(info)) GTEST_SKIP() << "not lavapipe: " << info.summary();
  EXPECT_TRUE(contains(info.name, "llvmpipe"));
  EXPECT_EQ(info.type, VK_PHYSICAL_DEVICE_TYPE_CPU);
  EXPECT_EQ(info.type_name(), "CPU");
  EXPECT_EQ(info.vendor_id, 0x10005u);  // VK_VENDOR_ID_MESA
  EXPECT_TRUE(contains(info.driver_info, "Mesa")) << info.driver_info;
  EXPECT_GE(info.api_version, VK_API_VERSION_1_3);
  // Mesa 22.3's llvmpipe on a 256-bit (AVX2) host: 8 lanes per subgroup.
  EXPECT_EQ(info.subgroup_size, 8u);
  EXPECT_TRUE(info.subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT);
  for (VkSubgroupFeatureFlagBits op : {VK_SUBGROUP_FEATURE_BASIC_BIT, VK_SUBGROUP_FEATURE_VOTE_BIT,
                                       VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, VK_SUBGROUP_FEATURE_BALLOT_BIT})
    EXPECT_TRUE(info.subgroup_operations & op) << "operation bit " << op;
  EXPECT_EQ(info.max_work_group_invocations, 1024u);
  EXPECT_EQ(info.max_shared_memory, 32768u);
  EXPECT_EQ(info.max_push_constants, 128u);
  EXPECT_EQ(info.max_allocation_size, uint64_t(1) << 31);
  EXPECT_EQ(info.min_storage_buffer_offset_alignment, 16u);
  EXPECT_EQ(info.timestamp_period, 1.0f);
  EXPECT_EQ(info.timestamp_valid_bits, 64u);
  ASSERT_EQ(info.heaps.size(), 1u);
  EXPECT_TRUE(info.heaps[0].device_local());
  ASSERT_EQ(info.heaps[0].types.size(), 1u);
  constexpr VkMemoryPropertyFlags unified = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  EXPECT_EQ(info.heaps[0].types[0] & unified, unified);
  EXPECT_TRUE(info.features.buffer_device_address);
  EXPECT_TRUE(info.features.vulkan_memory_model);
}

TEST(DeviceList, DescriptionNamesEveryField) {
  DeviceInfo info = test::device().info();
  std::string text = info.describe();
  std::printf("%s", text.c_str());  // what --list-devices shows, in the test log
  EXPECT_EQ(text.rfind(std::to_string(info.index) + ": " + info.summary(), 0), 0u);
  for (const char* part : {"vendor 0x", "driver version", "subgroups: size", "; stages ", "; operations ",
                           "work-groups: size up to ", "invocations; count up to ", "shared memory: ",
                           "push constants: ", "max allocation ", "min storage buffer offset alignment",
                           "timestamps: ", "memory heap 0: ", "vkcl features: "})
    EXPECT_TRUE(contains(text, part)) << "missing '" << part << "'";
  EXPECT_TRUE(contains(text, "work-groups: size up to " + std::to_string(info.max_work_group_size[0]) + " x "));
  EXPECT_TRUE(contains(text, "subgroups: size " + std::to_string(info.subgroup_size) + ";"));
  EXPECT_EQ(contains(text, "[default]"), info.preferred);
  if (is_lavapipe(info)) {
    EXPECT_TRUE(contains(text, "llvmpipe (LLVM "));
    EXPECT_TRUE(contains(text, "(CPU, driver llvmpipe Mesa "));
    EXPECT_TRUE(contains(text, "vendor 0x10005"));
    EXPECT_TRUE(contains(text, "subgroups: size 8; stages compute"));
    EXPECT_TRUE(contains(text, "operations basic vote arithmetic ballot"));
    EXPECT_TRUE(contains(text, "shared memory: 32768 bytes; push constants: 128 bytes"));
    EXPECT_TRUE(contains(text, "max allocation 2147483648 bytes (2.00 GiB)"));
    EXPECT_TRUE(contains(text, "timestamps: 64 valid bits on the compute queue, period 1 ns"));
    EXPECT_TRUE(contains(text, "memory heap 0: 2147483648 bytes (2.00 GiB), device-local; types: "
                               "[device-local host-visible host-coherent host-cached]"));
    EXPECT_TRUE(contains(text, "vkcl features: buffer_device_address vulkan_memory_model"));
  }
  // Every line but the first is indented, and the text ends with a newline.
  ASSERT_EQ(text.back(), '\n');
  for (size_t at = text.find('\n'); at + 1 < text.size(); at = text.find('\n', at + 1))
    EXPECT_EQ(text.compare(at + 1, 2, "  "), 0) << "line at " << at + 1;
}

}  // namespace
}  // namespace vkcl
