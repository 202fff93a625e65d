#include "raw_vulkan.h"

#include <volk.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace vkcl::bench {
namespace {

void check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) throw std::runtime_error(std::string(call) + " failed: VkResult " + std::to_string(result));
}

template <typename F>
F load(PFN_vkVoidFunction f, const char* name) {
  if (!f) throw std::runtime_error(std::string("no ") + name);
  return reinterpret_cast<F>(f);
}

// Every object of the path, destroyed in reverse order whatever happens.
struct Raw {
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkDestroyInstance destroy_instance = nullptr;
  VolkDeviceTable d{};
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  ~Raw() {
    if (device) {
      d.vkDeviceWaitIdle(device);
      if (fence) d.vkDestroyFence(device, fence, nullptr);
      if (pool) d.vkDestroyCommandPool(device, pool, nullptr);
      if (pipeline) d.vkDestroyPipeline(device, pipeline, nullptr);
      if (layout) d.vkDestroyPipelineLayout(device, layout, nullptr);
      if (module) d.vkDestroyShaderModule(device, module, nullptr);
      d.vkDestroyDevice(device, nullptr);
    }
    if (instance) destroy_instance(instance, nullptr);
  }
};

}  // namespace

RunResult raw_vulkan_dispatch_overhead(const std::string& device_name, const std::string& spv, int repeat) {
  RunResult result;
  try {
    const std::string code = read_text(spv);
    check(volkInitialize(), "volkInitialize");  // vkcl did it already; this only reloads the global entry points
    Raw raw;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pApplicationInfo = &app;
    check(vkCreateInstance(&instance_info, nullptr, &raw.instance), "vkCreateInstance");
    // Instance functions through this instance's own pointers: volk's
    // globals belong to vkcl's instance.
    auto get = [&](const char* name) { return vkGetInstanceProcAddr(raw.instance, name); };
    raw.destroy_instance = load<PFN_vkDestroyInstance>(get("vkDestroyInstance"), "vkDestroyInstance");
    auto enumerate = load<PFN_vkEnumeratePhysicalDevices>(get("vkEnumeratePhysicalDevices"), "vkEnumeratePhysicalDevices");
    auto properties = load<PFN_vkGetPhysicalDeviceProperties>(get("vkGetPhysicalDeviceProperties"), "vkGetPhysicalDeviceProperties");
    auto families = load<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(get("vkGetPhysicalDeviceQueueFamilyProperties"),
                                                                        "vkGetPhysicalDeviceQueueFamilyProperties");
    auto create_device = load<PFN_vkCreateDevice>(get("vkCreateDevice"), "vkCreateDevice");
    auto device_proc = load<PFN_vkGetDeviceProcAddr>(get("vkGetDeviceProcAddr"), "vkGetDeviceProcAddr");

    uint32_t count = 0;
    check(enumerate(raw.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> physical(count);
    check(enumerate(raw.instance, &count, physical.data()), "vkEnumeratePhysicalDevices");
    VkPhysicalDevice chosen = VK_NULL_HANDLE;
    for (VkPhysicalDevice p : physical) {
      VkPhysicalDeviceProperties props;
      properties(p, &props);
      if (device_name == props.deviceName) chosen = p;
    }
    if (!chosen) throw std::runtime_error("no physical device named '" + device_name + "'");
    uint32_t family_count = 0;
    families(chosen, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> family_props(family_count);
    families(chosen, &family_count, family_props.data());
    uint32_t family = family_count;
    for (uint32_t f = 0; f < family_count && family == family_count; ++f)
      if (family_props[f].queueFlags & VK_QUEUE_COMPUTE_BIT) family = f;
    if (family == family_count) throw std::runtime_error("no compute queue");

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    check(create_device(chosen, &device_info, nullptr, &raw.device), "vkCreateDevice");
    // The device table by hand, through this instance's vkGetDeviceProcAddr.
    VolkDeviceTable& d = raw.d;
#define VKCL_BENCH_LOAD_DEVICE(f) d.f = load<PFN_##f>(device_proc(raw.device, #f), #f);
    VKCL_BENCH_LOAD_DEVICE(vkDestroyDevice)
    VKCL_BENCH_LOAD_DEVICE(vkDeviceWaitIdle)
    VKCL_BENCH_LOAD_DEVICE(vkGetDeviceQueue)
    VKCL_BENCH_LOAD_DEVICE(vkCreateShaderModule)
    VKCL_BENCH_LOAD_DEVICE(vkDestroyShaderModule)
    VKCL_BENCH_LOAD_DEVICE(vkCreatePipelineLayout)
    VKCL_BENCH_LOAD_DEVICE(vkDestroyPipelineLayout)
    VKCL_BENCH_LOAD_DEVICE(vkCreateComputePipelines)
    VKCL_BENCH_LOAD_DEVICE(vkDestroyPipeline)
    VKCL_BENCH_LOAD_DEVICE(vkCreateCommandPool)
    VKCL_BENCH_LOAD_DEVICE(vkDestroyCommandPool)
    VKCL_BENCH_LOAD_DEVICE(vkAllocateCommandBuffers)
    VKCL_BENCH_LOAD_DEVICE(vkBeginCommandBuffer)
    VKCL_BENCH_LOAD_DEVICE(vkEndCommandBuffer)
    VKCL_BENCH_LOAD_DEVICE(vkCmdBindPipeline)
    VKCL_BENCH_LOAD_DEVICE(vkCmdDispatch)
    VKCL_BENCH_LOAD_DEVICE(vkCreateFence)
    VKCL_BENCH_LOAD_DEVICE(vkDestroyFence)
    VKCL_BENCH_LOAD_DEVICE(vkResetFences)
    VKCL_BENCH_LOAD_DEVICE(vkWaitForFences)
    VKCL_BENCH_LOAD_DEVICE(vkQueueSubmit)
#undef VKCL_BENCH_LOAD_DEVICE
    VkQueue queue;
    d.vkGetDeviceQueue(raw.device, family, 0, &queue);

    std::vector<uint32_t> words(code.size() / 4);
    std::memcpy(words.data(), code.data(), words.size() * 4);
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = words.size() * 4;
    module_info.pCode = words.data();
    check(d.vkCreateShaderModule(raw.device, &module_info, nullptr, &raw.module), "vkCreateShaderModule");
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    check(d.vkCreatePipelineLayout(raw.device, &layout_info, nullptr, &raw.layout), "vkCreatePipelineLayout");
    VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = raw.module;
    pipeline_info.stage.pName = "empty";  // glslang -e empty
    pipeline_info.layout = raw.layout;
    check(d.vkCreateComputePipelines(raw.device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &raw.pipeline),
          "vkCreateComputePipelines");

    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = family;
    check(d.vkCreateCommandPool(raw.device, &pool_info, nullptr, &raw.pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = raw.pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer commands;
    check(d.vkAllocateCommandBuffers(raw.device, &alloc, &commands), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    check(d.vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
    d.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, raw.pipeline);
    d.vkCmdDispatch(commands, 1, 1, 1);
    check(d.vkEndCommandBuffer(commands), "vkEndCommandBuffer");
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(d.vkCreateFence(raw.device, &fence_info, nullptr, &raw.fence), "vkCreateFence");

    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    auto once = [&] {
      check(d.vkQueueSubmit(queue, 1, &submit, raw.fence), "vkQueueSubmit");
      check(d.vkWaitForFences(raw.device, 1, &raw.fence, VK_TRUE, 60'000'000'000ull), "vkWaitForFences");
      check(d.vkResetFences(raw.device, 1, &raw.fence), "vkResetFences");
    };
    for (int i = 0; i < 10; ++i) once();
    for (int i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      once();
      result.samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
  } catch (const std::exception& e) {
    return {"run error", e.what(), {}};
  }
  return result;
}

}  // namespace vkcl::bench
