// map_memory_semantics: barriers, fences and memory accesses for the chosen
// Vulkan memory model.
//
// builtins/ (synchronization.cl and atomics.cl, through the one mapping
// table in vkcl_memory_model.h) has already mapped OpenCL's flags, orders and
// scopes to storage-class and ordering bits. This pass treats the scope and
// semantics operands of OpControlBarrier, OpMemoryBarrier and every OpAtomic*
// alike, and adds only what depends on the memory model:
//   Vulkan memory model: Release → +MakeAvailable, Acquire → +MakeVisible,
//     AcquireRelease → both; loads and stores through Workgroup,
//     PhysicalStorageBuffer and StorageBuffer pointers become NonPrivatePointer so that fences
//     order them; Device scope becomes QueueFamily on devices without
//     vulkanMemoryModelDeviceScope.
//   GLSL450: semantics stay as they are.
// Under both, what the Vulkan environment forbids is normalized so it can
// never reach a driver from any source: SequentiallyConsistent becomes
// AcquireRelease, CrossWorkgroupMemory becomes UniformMemory, CrossDevice
// scope becomes Device. A Subgroup scope declares GroupNonUniform; a Device
// scope under the Vulkan memory model declares VulkanMemoryModelDeviceScope.
// Atomics on 64-bit integers declare Int64Atomics and need
// shaderBufferInt64Atomics (global memory) or shaderSharedInt64Atomics (local
// memory); loads, stores and exchanges of float or double on local memory
// need shaderSharedFloat32Atomics or shaderSharedFloat64Atomics. OpAtomicCompareExchangeWeak becomes OpAtomicCompareExchange (a
// valid weak compare-exchange; the Weak form needs Kernel); OpAtomicFlag*
// (Kernel only) are rejected: builtins/atomics.cl never emits them.
#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::MemorySemanticsMask;
using spv::Scope;

constexpr uint32_t bit(MemorySemanticsMask m) { return uint32_t(m); }

class MapMemorySemantics final : public Pass {
 public:
  std::string_view name() const override { return "map_memory_semantics"; }

  void run(Module& m, LoweringContext& context) override {
    const LoweringOptions& options = context.options;
    bool vulkan = options.memory_model == MemoryModel::Vulkan;
    for (Function& f : m.functions) {
      ValueTypes types = value_types(m, f);
      for (Instruction& i : f.code) {
        switch (i.opcode) {
          case Op::OpControlBarrier:
            i.words[0] = map_scope(m, context, i.words[0]);
            i.words[1] = map_scope(m, context, i.words[1]);
            i.words[2] = map_semantics(m, i.words[2], vulkan);
            break;
          case Op::OpMemoryBarrier:
            i.words[0] = map_scope(m, context, i.words[0]);
            i.words[1] = map_semantics(m, i.words[1], vulkan);
            break;
          case Op::OpLoad:
          case Op::OpStore:
            if (vulkan) make_non_private(m, types, i);
            break;
          default:
            if (is_atomic(i.opcode)) map_atomic(m, context, types, i);
            break;
        }
      }
    }
  }

 private:
  static uint32_t constant_operand(const Module& m, uint32_t id, const char* what) {
    auto value = m.constant_value(id);
    if (!value)
      throw ProgramError(std::string("a barrier or fence ") + what +
                         " is not a compile-time constant after inlining");
    return uint32_t(*value);
  }

  static uint32_t map_scope(Module& m, LoweringContext& context, uint32_t id) {
    auto scope = Scope(constant_operand(m, id, "scope"));
    if (scope == Scope::CrossDevice) scope = Scope::Device;
    if (scope == Scope::Device && context.options.memory_model == MemoryModel::Vulkan &&
        !context.options.device_scope_available)
      scope = Scope::QueueFamily;
    if (scope == Scope::Subgroup) {
      m.add_capability(spv::Capability::GroupNonUniform);
      context.reflection.features.subgroup_basic = true;
    }
    if (scope == Scope::Device && context.options.memory_model == MemoryModel::Vulkan) {
      m.add_capability(spv::Capability::VulkanMemoryModelDeviceScope);
      context.reflection.features.vulkan_memory_model_device_scope = true;
    }
    return m.constant_u32(uint32_t(scope));
  }

  // Operands after the result id: pointer, memory scope, semantics (a
  // compare-exchange has a second, Unequal, semantics), values.
  static void map_atomic(Module& m, LoweringContext& context, const ValueTypes& types, Instruction& i) {
    if (i.opcode == Op::OpAtomicFlagTestAndSet || i.opcode == Op::OpAtomicFlagClear)
      throw ProgramError("internal compiler error: OpAtomicFlag* needs the Kernel capability");
    if (i.opcode == Op::OpAtomicCompareExchangeWeak) i.opcode = Op::OpAtomicCompareExchange;
    const bool vulkan = context.options.memory_model == MemoryModel::Vulkan;
    i.words[1] = map_scope(m, context, i.words[1]);
    i.words[2] = map_semantics(m, i.words[2], vulkan);
    if (i.opcode == Op::OpAtomicCompareExchange) i.words[3] = map_semantics(m, i.words[3], vulkan);
    require_int64_atomics(m, context, types.at(i.word(0)));
    require_shared_float_atomics(m, context, types.at(i.word(0)));
  }

  // Float and double atomics from OpenCL C reach here only on local memory
  // (builtins/atomics.cl does those on global memory on their bits as int
  // and long), and only loads, stores and exchanges: VK_EXT_shader_atomic_float's
  // shaderSharedFloat32Atomics and shaderSharedFloat64Atomics.
  static void require_shared_float_atomics(Module& m, LoweringContext& context, uint32_t pointer_type) {
    const Instruction* pointee = m.find_global(m.pointee_of(pointer_type));
    if (pointee == nullptr || pointee->opcode != Op::OpTypeFloat) return;
    if (m.storage_class_of(pointer_type) != spv::StorageClass::Workgroup) return;
    ModuleFeatures& features = context.reflection.features;
    (pointee->word(0) == 64 ? features.shader_shared_float64_atomics : features.shader_shared_float32_atomics) = true;
  }

  static void require_int64_atomics(Module& m, LoweringContext& context, uint32_t pointer_type) {
    const Instruction* pointee = m.find_global(m.pointee_of(pointer_type));
    if (pointee == nullptr || pointee->opcode != Op::OpTypeInt || pointee->word(0) != 64) return;
    m.add_capability(spv::Capability::Int64Atomics);
    ModuleFeatures& features = context.reflection.features;
    if (m.storage_class_of(pointer_type) == spv::StorageClass::Workgroup)
      features.shader_shared_int64_atomics = true;
    else
      features.shader_buffer_int64_atomics = true;
  }

  static uint32_t map_semantics(Module& m, uint32_t id, bool vulkan) {
    uint32_t s = constant_operand(m, id, "memory semantics");
    if (s & bit(MemorySemanticsMask::SequentiallyConsistent))
      s = (s & ~bit(MemorySemanticsMask::SequentiallyConsistent)) | bit(MemorySemanticsMask::AcquireRelease);
    if (s & bit(MemorySemanticsMask::CrossWorkgroupMemory))
      s = (s & ~bit(MemorySemanticsMask::CrossWorkgroupMemory)) | bit(MemorySemanticsMask::UniformMemory);
    if (vulkan) {
      if (s & (bit(MemorySemanticsMask::Release) | bit(MemorySemanticsMask::AcquireRelease)))
        s |= bit(MemorySemanticsMask::MakeAvailable);
      if (s & (bit(MemorySemanticsMask::Acquire) | bit(MemorySemanticsMask::AcquireRelease)))
        s |= bit(MemorySemanticsMask::MakeVisible);
    }
    return m.constant_u32(s);
  }

  static void make_non_private(const Module& m, const ValueTypes& types, Instruction& access) {
    auto storage = m.storage_class_of(types.at(access.word(0)));
    if (storage != spv::StorageClass::Workgroup && storage != spv::StorageClass::PhysicalStorageBuffer &&
        storage != spv::StorageClass::StorageBuffer)
      return;
    size_t mask_index = access.opcode == Op::OpLoad ? 1 : 2;
    auto non_private = uint32_t(spv::MemoryAccessMask::NonPrivatePointer);
    if (access.words.size() <= mask_index)
      access.literal(non_private);
    else
      access.words[mask_index] |= non_private;
  }
};

}  // namespace

std::unique_ptr<Pass> make_map_memory_semantics() { return std::make_unique<MapMemorySemantics>(); }

}  // namespace vkcl::spirv
