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
//
// A module that computes no half value (a kernel that takes `__global half*`
// and reads and writes the bits as ushort, as vload_half and vstore_half do,
// builtins/vload_store_half.cl) gets ushort for its half type: the same bits,
// and no Float16 capability, which needs shaderFloat16 (spirv-val asks for it,
// or for StoragePushConstant16, even for a push constant holding a pointer to
// half). Half storage then runs where 16-bit storage does.
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <optional>
#include <unordered_map>
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
    case Capability::SubgroupDispatch:  // declared for the SubgroupSize mode, which rewrite_entry_points moved to the reflection
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
    for (const KernelReflection& kernel : context.reflection.kernels)
      for (const KernelArg& arg : kernel.args)
        if (arg.binding) features.push_descriptor = true;
    std::erase_if(m.capabilities, [](const Instruction& c) { return kernel_only(Capability(c.word(0))); });
    m.extensions.clear();
    m.add_capability(Capability::Shader);
    if (!computes_half_values(m)) store_halves_as_ushort(m);
    if (features.shader_buffer_int64_atomics || features.shader_shared_int64_atomics)
      m.add_capability(Capability::Int64Atomics);

    bool physical_storage_buffer = false, storage_buffer = false;
    for (const Instruction& g : m.globals) {
      if (g.opcode == Op::OpTypePointer && spv::StorageClass(g.word(0)) == spv::StorageClass::StorageBuffer)
        storage_buffer = true;
      if (g.opcode == Op::OpTypeInt) require_width(m, features, g.word(0), false);
      if (g.opcode == Op::OpTypeFloat) require_width(m, features, g.word(0), true);
      if (g.opcode == Op::OpTypePointer && spv::StorageClass(g.word(0)) == spv::StorageClass::PhysicalStorageBuffer)
        physical_storage_buffer = true;
    }
    if (physical_storage_buffer) {
      m.add_capability(Capability::PhysicalStorageBufferAddresses);
      m.add_extension("SPV_KHR_physical_storage_buffer");
      features.buffer_device_address = true;
    }
    if (physical_storage_buffer || storage_buffer) require_small_type_storage(m, features);
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

  // Whether a 16-bit float is a value anywhere: the result of an instruction
  // (a load, a conversion, a bitcast), a constant, a parameter or a result.
  static bool computes_half_values(const Module& m) {
    std::unordered_set<uint32_t> half_types;  // 16-bit floats and the types built on them
    for (const Instruction& g : m.globals) {
      switch (g.opcode) {
        case Op::OpTypeFloat:
          if (g.word(0) == 16) half_types.insert(g.result_id);
          break;
        case Op::OpTypeVector: case Op::OpTypeArray: case Op::OpTypeRuntimeArray:
          if (half_types.count(g.word(0))) half_types.insert(g.result_id);
          break;
        case Op::OpTypeStruct:
          if (std::ranges::any_of(g.words, [&](uint32_t member) { return half_types.count(member) > 0; }))
            half_types.insert(g.result_id);
          break;
        case Op::OpTypeFunction:
          if (std::ranges::any_of(g.words, [&](uint32_t type) { return half_types.count(type) > 0; })) return true;
          break;
        default:
          if (g.type_id != 0 && half_types.count(g.type_id)) return true;  // a constant or an undefined value
          break;
      }
    }
    if (half_types.empty()) return false;
    for (const Function& f : m.functions) {
      // A half only moved between memory and an integer of its size is bits,
      // not a value: a load whose every use is a bitcast to a non-half type,
      // and a bitcast of a non-half value whose every use stores it or
      // bitcasts it to a non-half type (tools/clc/retype_punned_accesses
      // makes these of ushort accesses to __local and __private half memory;
      // lower_kernel_arguments rebuilds a half argument from its word so).
      const DefUse def_use(f);
      const ValueTypes types = value_types(m, f);
      auto is_half = [&](uint32_t value) {
        auto type = types.find(value);
        return type != types.end() && half_types.count(type->second) > 0;
      };
      for (const Instruction& i : f.code) {
        if (i.type_id == 0 || !half_types.count(i.type_id)) continue;
        const std::vector<size_t>& uses = def_use.uses(i.result_id);
        if (i.opcode == Op::OpLoad && std::ranges::all_of(uses, [&](size_t p) {
              const Instruction& use = f.code[p];
              return use.opcode == Op::OpBitcast && !half_types.count(use.type_id);
            }))
          continue;
        if (i.opcode == Op::OpBitcast && !is_half(i.word(0)) && std::ranges::all_of(uses, [&](size_t p) {
              const Instruction& use = f.code[p];
              return (use.opcode == Op::OpStore && use.word(1) == i.result_id && use.word(0) != i.result_id) ||
                     (use.opcode == Op::OpBitcast && !half_types.count(use.type_id));
            }))
          continue;
        return true;
      }
    }
    return false;
  }

  // Makes the 16-bit float type the 16-bit integer type (only memory holds
  // it, so only its name changes): one of the two declarations stays, the
  // earlier, so that it still precedes every use, and so does one of each
  // pair of vector types that become alike, which SPIR-V must not repeat.
  static void store_halves_as_ushort(Module& m) {
    auto position = [&](Op opcode, std::initializer_list<uint32_t> operands) -> std::optional<size_t> {
      for (size_t p = 0; p < m.globals.size(); ++p)
        if (m.globals[p].opcode == opcode && std::ranges::equal(m.globals[p].words, operands)) return p;
      return std::nullopt;
    };
    const std::optional<size_t> half = position(Op::OpTypeFloat, {16});
    if (!half) return;
    const std::optional<size_t> ushort = position(Op::OpTypeInt, {16, 0});
    merge_types(m, *half, ushort, std::move(Instruction(Op::OpTypeInt, 0, 0).literal(16).literal(0)));
    for (size_t p = 0; p < m.globals.size(); ++p) {
      const Instruction& vector = m.globals[p];
      if (vector.opcode != Op::OpTypeVector) continue;
      for (size_t q = p + 1; q < m.globals.size(); ++q)
        if (m.globals[q].opcode == Op::OpTypeVector && m.globals[q].words == vector.words) {
          merge_types(m, q, p, Instruction(vector));
          break;  // at most one vector of ushort of each size came from half
        }
    }
    // The bitcasts between half and ushort now cast a type to itself.
    for (Function& f : m.functions) {
      const ValueTypes types = value_types(m, f);
      for (Instruction& i : f.code) {
        if (i.opcode != Op::OpBitcast) continue;
        auto operand = types.find(i.word(0));
        if (operand != types.end() && operand->second == i.type_id) i.opcode = Op::OpCopyObject;
      }
    }
  }

  // Of the type declared at `a` and the one at `b` (when there is one), the
  // earlier stays as `as`, the later's uses move to it and it goes.
  static void merge_types(Module& m, size_t a, std::optional<size_t> b, Instruction as) {
    if (!b) {
      as.result_id = m.globals[a].result_id;
      m.globals[a] = std::move(as);
      return;
    }
    const size_t kept = std::min(a, *b), gone = std::max(a, *b);
    const uint32_t kept_id = m.globals[kept].result_id, gone_id = m.globals[gone].result_id;
    as.result_id = kept_id;
    m.globals[kept] = std::move(as);
    m.globals.erase(m.globals.begin() + ptrdiff_t(gone));
    m.replace_all_uses(gone_id, kept_id);
  }

  // 8- and 16-bit types in global memory need StorageBuffer8BitAccess /
  // StorageBuffer16BitAccess (which cover StorageBuffer and PhysicalStorageBuffer) and the
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
      if (g.opcode == Op::OpTypePointer && (spv::StorageClass(g.word(0)) == spv::StorageClass::PhysicalStorageBuffer ||
                                            spv::StorageClass(g.word(0)) == spv::StorageClass::StorageBuffer))
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
