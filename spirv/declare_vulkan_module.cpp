// declare_vulkan_module: the module header for Vulkan, and the features the
// host must check.
//
// Replaces the Kernel capabilities (Kernel, Addresses, Linkage, ...) with
// Shader and what the remaining types and instructions need; sets the
// addressing and memory model (PhysicalStorageBuffer64 when a pointer to
// global memory exists, else Logical; Vulkan or GLSL450 as asked); declares
// the extensions SPIR-V 1.3 needs for them, so one module is valid for
// Vulkan 1.1 (with those extensions) and for Vulkan 1.2 and later; and lists
// each entry point's Input variables as its interface.
#include <algorithm>
#include <functional>
#include <unordered_set>

#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::Capability;

bool kernel_only(Capability c) {
  switch (c) {
    case Capability::Kernel: case Capability::Addresses: case Capability::Linkage:
    case Capability::GenericPointer: case Capability::Vector16: case Capability::Float16Buffer:
    case Capability::Int8: case Capability::Int16: case Capability::Int64: case Capability::Float16:
    case Capability::Float64:  // re-derived below from the types that remain
    case Capability::Int64Atomics:  // re-derived below from the features map_memory_semantics found
      return true;
    default:
      return false;
  }
}

class DeclareVulkanModule final : public Pass {
 public:
  std::string_view name() const override { return "declare_vulkan_module"; }

  void run(Module& m, LoweringContext& context) override {
    ModuleFeatures& features = context.reflection.features;
    std::erase_if(m.capabilities, [](const Instruction& c) { return kernel_only(Capability(c.word(0))); });
    m.extensions.clear();
    m.add_capability(Capability::Shader);
    if (features.shader_buffer_int64_atomics || features.shader_shared_int64_atomics)
      m.add_capability(Capability::Int64Atomics);

    bool physical_storage_buffer = false;
    for (const Instruction& g : m.globals) {
      if (g.opcode == Op::OpTypeInt) require_width(m, features, g.word(0), false);
      if (g.opcode == Op::OpTypeFloat) require_width(m, features, g.word(0), true);
      if (g.opcode == Op::OpTypePointer && spv::StorageClass(g.word(0)) == spv::StorageClass::PhysicalStorageBuffer)
        physical_storage_buffer = true;
    }
    if (physical_storage_buffer) {
      m.add_capability(Capability::PhysicalStorageBufferAddresses);
      m.add_extension("SPV_KHR_physical_storage_buffer");
      features.buffer_device_address = true;
      require_small_type_storage(m, features);
    }
    bool vulkan_memory_model = context.options.memory_model == MemoryModel::Vulkan;
    if (vulkan_memory_model) {
      m.add_capability(Capability::VulkanMemoryModel);
      m.add_extension("SPV_KHR_vulkan_memory_model");
      features.vulkan_memory_model = true;
    } else {
      features.vulkan_memory_model_device_scope = false;
    }
    m.memory_model = {std::move(
        Instruction(Op::OpMemoryModel, 0, 0)
            .literal(uint32_t(physical_storage_buffer ? spv::AddressingModel::PhysicalStorageBuffer64
                                                      : spv::AddressingModel::Logical))
            .literal(uint32_t(vulkan_memory_model ? spv::MemoryModel::Vulkan : spv::MemoryModel::GLSL450)))};
    m.version = 0x10300;
    set_interfaces(m);
  }

 private:
  static void require_width(Module& m, ModuleFeatures& features, uint32_t width, bool is_float) {
    if (is_float) {
      if (width == 16) { m.add_capability(Capability::Float16); features.shader_float16 = true; }
      if (width == 64) { m.add_capability(Capability::Float64); features.shader_float64 = true; }
      return;
    }
    if (width == 8) { m.add_capability(Capability::Int8); features.shader_int8 = true; }
    if (width == 16) { m.add_capability(Capability::Int16); features.shader_int16 = true; }
    if (width == 64) { m.add_capability(Capability::Int64); features.shader_int64 = true; }
  }

  // 8- and 16-bit types in global memory need StorageBuffer8BitAccess /
  // StorageBuffer16BitAccess (which cover PhysicalStorageBuffer) and the
  // storageBuffer8BitAccess / storageBuffer16BitAccess features.
  static void require_small_type_storage(Module& m, ModuleFeatures& features) {
    uint32_t widths = 0;  // bit 8 and bit 16
    std::unordered_set<uint32_t> seen;
    std::function<void(uint32_t)> visit = [&](uint32_t type) {
      if (!seen.insert(type).second) return;
      const Instruction* t = m.find_global(type);
      if (t == nullptr) return;
      switch (t->opcode) {
        case Op::OpTypeInt: case Op::OpTypeFloat:
          if (t->word(0) == 8 || t->word(0) == 16) widths |= t->word(0);
          break;
        case Op::OpTypeVector: case Op::OpTypeArray: case Op::OpTypeRuntimeArray: visit(t->word(0)); break;
        case Op::OpTypeStruct: for (uint32_t member : t->words) visit(member); break;
        default: break;  // pointers: their pointees are visited as pointees of their own
      }
    };
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpTypePointer && spv::StorageClass(g.word(0)) == spv::StorageClass::PhysicalStorageBuffer)
        visit(g.word(1));
    if (widths & 8) {
      m.add_capability(Capability::StorageBuffer8BitAccess);
      m.add_extension("SPV_KHR_8bit_storage");
      features.storage_buffer_8bit = true;
    }
    if (widths & 16) {
      m.add_capability(Capability::StorageBuffer16BitAccess);
      m.add_extension("SPV_KHR_16bit_storage");
      features.storage_buffer_16bit = true;
    }
  }

  // SPIR-V 1.3: an entry point lists the Input and Output variables it uses.
  static void set_interfaces(Module& m) {
    std::unordered_set<uint32_t> inputs;
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpVariable && spv::StorageClass(g.word(0)) == spv::StorageClass::Input) inputs.insert(g.result_id);
    for (Instruction& ep : m.entry_points) {
      uint32_t function = ep.word(1);
      std::vector<uint32_t> used;
      for (Instruction& i : function_by_id(m, function).code)
        i.for_each_used_id([&](uint32_t& id) {
          if (inputs.count(id) && std::ranges::count(used, id) == 0) used.push_back(id);
        });
      std::ranges::sort(used);
      for (uint32_t id : used) ep.id(id);
    }
  }
};

}  // namespace

std::unique_ptr<Pass> make_declare_vulkan_module() { return std::make_unique<DeclareVulkanModule>(); }

}  // namespace vkcl::spirv
