#include "vkcl/program.h"

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "internal.h"
#include "one_kernel_module.h"
#include "pipeline_cache.h"
#include "preserve_denormals.h"
#include "spirv_words.h"
#include "vkcl/device.h"
#include "vkcl/kernel.h"

namespace vkcl {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

std::string read_file(const std::filesystem::path& path, std::ios::openmode mode) {
  std::ifstream in(path, mode);
  if (!in) throw Error("cannot open " + path.string());
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::vector<uint32_t> read_words(const std::filesystem::path& path) {
  std::string bytes = read_file(path, std::ios::binary);
  if (bytes.size() % 4 != 0 || bytes.size() < 20)
    throw Error(path.string() + " is not SPIR-V: " + std::to_string(bytes.size()) + " bytes is not a whole module");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

// Names of the GLCompute entry points, read from the module's header section.
std::set<std::string> compute_entry_points(std::span<const uint32_t> words) {
  std::set<std::string> names;
  detail::for_each_instruction(words, [&](const detail::SpirvInstruction& i) {
    if (i.opcode == spv::Op::OpEntryPoint && i.operands.size() >= 3 &&
        i.operands[0] == uint32_t(spv::ExecutionModel::GLCompute))
      names.emplace(detail::string_operand(i.operands.subspan(2)));
    return true;
  });
  return names;
}

// Everything the dispatch code relies on, so that a bad reflection file is an
// error at load time rather than a write outside the push-constant block.
void check_reflection(const KernelReflection& k) {
  auto fail = [&](const std::string& what) { throw Error("reflection of kernel '" + k.name + "': " + what); };
  // Where the arguments are: the push-constant block, or the argument buffer.
  const uint32_t argument_bytes = k.argument_buffer ? k.argument_buffer->size : k.push_constant_size;
  const std::string argument_block = k.argument_buffer ? "argument buffer" : "push-constant block";
  if (const auto& buffer = k.argument_buffer) {
    if (buffer->size > kMaxArgumentBufferSize)
      fail("its arguments take " + std::to_string(buffer->size) + " bytes; vkcl passes at most " +
           std::to_string(kMaxArgumentBufferSize) + " (kMaxArgumentBufferSize)");
    if (buffer->offset % 8 != 0 || uint64_t(buffer->offset) + 8 > k.push_constant_size)
      fail("the argument buffer's address at offset " + std::to_string(buffer->offset) +
           " is not an aligned 8 bytes inside the push-constant block of " + std::to_string(k.push_constant_size) +
           " bytes");
    for (const NDRangeSlot& slot : k.ndrange) {
      uint32_t size = slot.field == NDRangeField::WorkDim ? 4 : 16;
      if (slot.offset < buffer->offset + 8 && buffer->offset < uint64_t(slot.offset) + size)
        fail("ndrange field " + std::string(to_string(slot.field)) + " at offset " + std::to_string(slot.offset) +
             " overlaps the argument buffer's address at offset " + std::to_string(buffer->offset));
    }
  }
  std::set<uint32_t> spec_ids, bindings;
  for (const KernelArg& a : k.args) {
    std::string which = "argument " + std::to_string(a.index) + (a.name.empty() ? "" : " (" + a.name + ")");
    if (a.kind == ArgKind::LocalPointer) {
      if (a.spec_id < kFirstLocalArgSpecId || a.spec_id == kOffsetsInKernelSpecId || !spec_ids.insert(a.spec_id).second)
        fail(which + ": specialization id " + std::to_string(a.spec_id) + " is reserved or used twice");
      continue;
    }
    if (a.binding) {
      if (!bindings.insert(*a.binding).second) fail(which + ": binding " + std::to_string(*a.binding) + " is used twice");
      continue;
    }
    if (a.kind != ArgKind::Scalar && a.size != 8) fail(which + ": a pointer must take 8 bytes, not " + std::to_string(a.size));
    if (a.size == 0 || uint64_t(a.offset) + a.size > argument_bytes)
      fail(which + ": bytes [" + std::to_string(a.offset) + ", " + std::to_string(uint64_t(a.offset) + a.size) +
           ") are outside the " + argument_block + " of " + std::to_string(argument_bytes) + " bytes");
  }
  for (const NDRangeSlot& slot : k.ndrange) {
    uint32_t size = slot.field == NDRangeField::WorkDim ? 4 : 16;
    if (slot.offset % 4 != 0 || uint64_t(slot.offset) + size > k.push_constant_size)
      fail("ndrange field " + std::string(to_string(slot.field)) + " at offset " + std::to_string(slot.offset) +
           " does not fit the push-constant block of " + std::to_string(k.push_constant_size) + " bytes");
  }
}

void check_spirv_version(uint32_t version_word, const detail::DeviceState& dev) {
  uint32_t major = (version_word >> 16) & 0xff, minor = (version_word >> 8) & 0xff;
  uint32_t needs = VK_API_VERSION_1_1;
  if (major > 1 || minor >= 6)
    needs = VK_API_VERSION_1_3;
  else if (minor >= 5 || (minor == 4 && !dev.spirv_1_4))
    needs = VK_API_VERSION_1_2;
  if (dev.api_version < needs)
    throw Error("the module is SPIR-V " + std::to_string(major) + "." + std::to_string(minor) + ", which needs Vulkan " +
                std::to_string(VK_API_VERSION_MAJOR(needs)) + "." + std::to_string(VK_API_VERSION_MINOR(needs)) + "; " +
                dev.properties.deviceName + " offers " + std::to_string(VK_API_VERSION_MAJOR(dev.api_version)) + "." +
                std::to_string(VK_API_VERSION_MINOR(dev.api_version)));
}

// The driver's statistics of each of the pipeline's executables, as
// "<executable>: <name> = <value>, ...; <executable>: ...".
std::string describe_statistics(const detail::DeviceState& dev, VkPipeline pipeline) {
  const VolkDeviceTable& vk = dev.vk;
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline};
  uint32_t count = 0;
  if (vk.vkGetPipelineExecutablePropertiesKHR(dev.device, &info, &count, nullptr) != VK_SUCCESS) return "(none)";
  std::vector<VkPipelineExecutablePropertiesKHR> executables(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  vk.vkGetPipelineExecutablePropertiesKHR(dev.device, &info, &count, executables.data());
  std::string text;
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR which{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, e};
    uint32_t n = 0;
    vk.vkGetPipelineExecutableStatisticsKHR(dev.device, &which, &n, nullptr);
    std::vector<VkPipelineExecutableStatisticKHR> stats(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    vk.vkGetPipelineExecutableStatisticsKHR(dev.device, &which, &n, stats.data());
    text += (e ? "; " : "") + std::string(executables[e].name) + ":";
    for (uint32_t i = 0; i < n; ++i) {
      const VkPipelineExecutableStatisticKHR& s = stats[i];
      std::string value;
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = s.value.b32 ? "true" : "false"; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = std::to_string(s.value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = std::to_string(s.value.u64); break;
        default: value = std::to_string(s.value.f64); break;
      }
      text += (i ? ", " : " ") + std::string(s.name) + " = " + value;
    }
  }
  return text;
}

}  // namespace

Program::Program(Device& device, const std::filesystem::path& spv) {
  // The module first, so that a wrong path names the .spv, not its reflection.
  std::vector<uint32_t> words = read_words(spv);
  std::filesystem::path reflection_path = spv;
  reflection_path += ".reflection";
  ModuleReflection reflection;
  try {
    reflection = parse_reflection(read_file(reflection_path, std::ios::in));
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(reflection_path.string() + ": " + e.what());
  }
  state_ = detail::create_program_state(device.state_, words, std::move(reflection));
}

Program::Program(Device& device, std::span<const uint32_t> words, ModuleReflection reflection)
    : state_(detail::create_program_state(device.state_, words, std::move(reflection))) {}

Program::Program(Device& device, std::span<const uint32_t> words, ModuleReflection reflection,
                 std::function<Module()> by_address)
    : Program(device, words, std::move(reflection)) {
  state_->by_address_module = std::move(by_address);
}

namespace detail {

std::shared_ptr<ProgramState> create_program_state(const std::shared_ptr<DeviceState>& dev,
                                                   std::span<const uint32_t> words, ModuleReflection reflection) {
  dev->check_usable();
  if (words.size() < 5 || words[0] != kSpirvMagic) throw Error("not a SPIR-V module: bad magic number or too short");
  check_spirv_version(words[1], *dev);

  auto missing = missing_features(reflection.features, dev->features);
  if (!missing.empty()) {
    std::string list;
    for (auto name : missing) list += (list.empty() ? "" : ", ") + std::string(name);
    throw Error("the module needs features that " + std::string(dev->properties.deviceName) + " lacks: " + list);
  }
  auto entry_points = compute_entry_points(words);
  for (const KernelReflection& k : reflection.kernels) {
    if (!entry_points.count(k.name))
      throw Error("reflection names kernel '" + k.name + "' but the module has no GLCompute entry point of that name");
    check_reflection(k);
  }

  // The module as written, with DenormPreserve where the device keeps
  // subnormals and the program allows no flushing, and SignedZeroInfNanPreserve
  // where the device can honour them (preserve_denormals.h).
  const std::vector<uint32_t> code = detail::preserve_signed_zeros(
      detail::preserve_denormals(words, detail::denorm_preserve_widths(dev->features, reflection)),
      detail::signed_zero_preserve_widths(dev->features));

  auto state = std::make_shared<detail::ProgramState>();
  state->device = dev;
  state->reflection = std::move(reflection);
  for (const KernelReflection& k : state->reflection.kernels) {
    const std::vector<uint32_t> kernel_code = detail::one_kernel_module(code, k.name);
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = kernel_code.size() * 4;
    info.pCode = kernel_code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    detail::check(dev->vk.vkCreateShaderModule(dev->device, &info, nullptr, &module),
                  "vkCreateShaderModule (kernel '" + k.name + "')");
    state->modules.push_back(module);
    dev->check_validation("shader module creation (kernel '" + k.name + "')");
  }
  return state;
}

}  // namespace detail

Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

const ModuleReflection& Program::reflection() const { return state_->reflection; }
const std::vector<std::string>& Program::pipeline_statistics() const { return state_->statistics; }

Kernel Program::kernel(std::string_view name) const {
  if (std::optional<uint32_t> i = state_->find_kernel(name)) {
    state_->layout(*i);  // checks the push-constant size now rather than at the first run
    state_->check_required_sub_group_size(*i);
    return Kernel(state_, *i);
  }
  std::string list;
  for (const auto& k : state_->reflection.kernels) list += (list.empty() ? "" : ", ") + k.name;
  throw Error("the module has no kernel '" + std::string(name) + "'; it has: " + (list.empty() ? "(none)" : list));
}

namespace detail {

ProgramState& ProgramState::by_address_state() {
  if (!by_address) {
    Program::Module fallback = by_address_module();
    by_address = create_program_state(device, fallback.words, std::move(fallback.reflection));
  }
  return *by_address;
}

std::optional<uint32_t> ProgramState::find_kernel(std::string_view name) const {
  for (uint32_t i = 0; i < reflection.kernels.size(); ++i)
    if (reflection.kernels[i].name == name) return i;
  return std::nullopt;
}

VkPipelineLayout ProgramState::layout(uint32_t kernel_index) {
  if (auto it = layouts.find(kernel_index); it != layouts.end()) return it->second;
  const KernelReflection& k = reflection.kernels[kernel_index];
  uint32_t size = push_range_size(k);
  uint32_t limit = device->properties.limits.maxPushConstantsSize;
  if (size > limit)
    throw Error("kernel '" + k.name + "' needs " + std::to_string(size) + " bytes of push constants; " +
                device->properties.deviceName + " allows maxPushConstantsSize = " + std::to_string(limit));
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, size};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.pushConstantRangeCount = size ? 1 : 0;
  info.pPushConstantRanges = &range;
  const VkDescriptorSetLayout buffers = storage_buffer_set_layout(kernel_index);
  info.setLayoutCount = buffers ? 1 : 0;
  info.pSetLayouts = &buffers;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(device->vk.vkCreatePipelineLayout(device->device, &info, nullptr, &layout), "vkCreatePipelineLayout");
  layouts.emplace(kernel_index, layout);
  return layout;
}

// Set 0 of a kernel with storage-buffer arguments: one binding per such
// argument, pushed at each dispatch (VK_KHR_push_descriptor: nothing to
// allocate or free per launch, and each submission records its own values).
VkDescriptorSetLayout ProgramState::storage_buffer_set_layout(uint32_t kernel_index) {
  const KernelReflection& k = reflection.kernels[kernel_index];
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (const KernelArg& a : k.args)
    if (a.binding)
      bindings.push_back({*a.binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  if (bindings.empty()) return VK_NULL_HANDLE;
  if (bindings.size() > device->max_bound_buffers)
    throw Error("kernel '" + k.name + "' binds " + std::to_string(bindings.size()) + " storage buffers; " +
                device->properties.deviceName + " allows " + std::to_string(device->max_bound_buffers) +
                " (the least of maxPushDescriptors and maxPerStageDescriptorStorageBuffers; 0 without "
                "VK_KHR_push_descriptor): compile it for this device (build_program), or with clc "
                "--max-storage-buffers=" + std::to_string(device->max_bound_buffers));
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  info.bindingCount = static_cast<uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  check(device->vk.vkCreateDescriptorSetLayout(device->device, &info, nullptr, &set_layout),
        "vkCreateDescriptorSetLayout");
  set_layouts.push_back(set_layout);
  return set_layout;
}

void ProgramState::check_required_sub_group_size(uint32_t kernel_index) const {
  const KernelReflection& k = reflection.kernels[kernel_index];
  if (!k.required_sub_group_size) return;
  std::string why = device->subgroup_size_control.refusal(k.required_sub_group_size);
  if (!why.empty())
    throw Error("kernel '" + k.name + "' requires sub-group size " + std::to_string(k.required_sub_group_size) +
                " (intel_reqd_sub_group_size), but " + why + " (" + device->properties.deviceName + ")");
}

VkPipeline ProgramState::pipeline(uint32_t kernel_index, const std::array<uint32_t, 3>& local_size,
                                  const std::vector<std::pair<uint32_t, uint32_t>>& spec_ids_and_lengths,
                                  bool offsets_in_kernel) {
  const KernelReflection& k = reflection.kernels[kernel_index];
  // The required sub-group size follows from the kernel today; it is in the
  // key because the pipeline depends on it.
  std::vector<uint32_t> key{kernel_index, local_size[0], local_size[1], local_size[2], k.required_sub_group_size,
                            offsets_in_kernel};
  for (const auto& [id, length] : spec_ids_and_lengths) key.push_back(length);
  if (auto it = pipelines.find(key); it != pipelines.end()) return it->second;

  // intel_reqd_sub_group_size(N): requiredSubgroupSize = N, which makes the
  // SubgroupSize builtin (get_max_sub_group_size) N. The work-group may hold
  // at most maxComputeWorkgroupSubgroups sub-groups of N (VUID-VkPipelineShaderStageCreateInfo-pNext-02756).
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required_size{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  if (const uint32_t n = k.required_sub_group_size) {
    check_required_sub_group_size(kernel_index);
    const uint64_t items = uint64_t(local_size[0]) * local_size[1] * local_size[2];
    const uint32_t most = device->subgroup_size_control.max_compute_workgroup_subgroups;
    if (items > uint64_t(most) * n)
      throw Error("kernel '" + k.name + "': local size " + std::to_string(local_size[0]) + "x" +
                  std::to_string(local_size[1]) + "x" + std::to_string(local_size[2]) + " = " + std::to_string(items) +
                  " work-items makes " + std::to_string((items + n - 1) / n) + " sub-groups of " + std::to_string(n) +
                  " (intel_reqd_sub_group_size); " + device->properties.deviceName +
                  " allows maxComputeWorkgroupSubgroups = " + std::to_string(most));
    required_size.requiredSubgroupSize = n;
  }

  std::vector<uint32_t> values{local_size[0], local_size[1], local_size[2]};
  std::vector<VkSpecializationMapEntry> entries;
  for (uint32_t i = 0; i < 3; ++i) entries.push_back({kWorkGroupSizeSpecIdBase + i, i * 4, 4});
  for (const auto& [id, length] : spec_ids_and_lengths) {
    entries.push_back({id, static_cast<uint32_t>(values.size() * 4), 4});
    values.push_back(length);
  }
  // A module without the constant (compiled before it existed) ignores it,
  // and adds the offsets the host then sets to 0: right either way.
  entries.push_back({kOffsetsInKernelSpecId, static_cast<uint32_t>(values.size() * 4), sizeof(VkBool32)});
  values.push_back(offsets_in_kernel ? VK_TRUE : VK_FALSE);
  VkSpecializationInfo specialization{static_cast<uint32_t>(entries.size()), entries.data(), values.size() * 4,
                                      values.data()};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  if (required_size.requiredSubgroupSize) info.stage.pNext = &required_size;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = modules[kernel_index];
  info.stage.pName = k.name.c_str();
  info.stage.pSpecializationInfo = &specialization;
  info.layout = layout(kernel_index);
  PipelineCache* cache = device->pipeline_cache.get();
  // Whether the driver found the pipeline in the on-disk cache: creation
  // feedback is core in 1.3, and only worth asking for when there is a cache.
  VkPipelineCreationFeedback feedback{};
  VkPipelineCreationFeedbackCreateInfo feedback_info{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  feedback_info.pPipelineCreationFeedback = &feedback;
  if (cache && device->api_version >= VK_API_VERSION_1_3) info.pNext = &feedback_info;
  if (device->pipeline_statistics) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  // Dispatches place their first group with vkCmdDispatchBase instead.
  if (!offsets_in_kernel) info.flags |= VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(device->vk.vkCreateComputePipelines(device->device, cache ? cache->handle() : VK_NULL_HANDLE, 1, &info, nullptr,
                                            &pipeline),
        "vkCreateComputePipelines (kernel '" + k.name + "')");
  if (cache)
    cache->created_pipeline((feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
                            (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT));
  pipelines.emplace(std::move(key), pipeline);
  if (device->pipeline_statistics)
    statistics.push_back("kernel '" + k.name + "' " + std::to_string(local_size[0]) + "x" + std::to_string(local_size[1]) +
                         "x" + std::to_string(local_size[2]) + ": " + describe_statistics(*device, pipeline));
  device->check_validation("building the pipeline of kernel '" + k.name + "'");
  return pipeline;
}

ProgramState::~ProgramState() {
  // Through retire: a submission left running may still use the pipelines.
  DeviceState& dev = *device;
  dev.retire([&dev, pipelines = std::move(pipelines), layouts = std::move(layouts),
               set_layouts = std::move(set_layouts), modules = std::move(modules)] {
    for (auto& [key, p] : pipelines) dev.vk.vkDestroyPipeline(dev.device, p, nullptr);
    for (auto& [index, l] : layouts) dev.vk.vkDestroyPipelineLayout(dev.device, l, nullptr);
    for (VkDescriptorSetLayout l : set_layouts) dev.vk.vkDestroyDescriptorSetLayout(dev.device, l, nullptr);
    for (VkShaderModule m : modules) dev.vk.vkDestroyShaderModule(dev.device, m, nullptr);
  });
}

}  // namespace detail
}  // namespace vkcl
