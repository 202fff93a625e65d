// lay_out_global_memory: explicit OpenCL layouts for the types global memory
// and by-value kernel arguments hold.
//
// Vulkan requires the pointee types of PhysicalStorageBuffer pointers to be
// explicitly laid out, and a driver reads structs and arrays in global
// memory at the offsets these decorations give. Every struct reachable from
// the pointee of a __global or __constant pointer type (CrossWorkgroup or
// UniformConstant, which legalize_pointers turns into PhysicalStorageBuffer
// in place) gets an Offset per member and every array an ArrayStride, at
// OpenCL's layout (Module::layout_of: natural alignment, 3-component vectors
// padded to 4, struct size rounded to its alignment), which is also a valid
// Vulkan (std430-like) layout. Unions are structs of their largest member,
// padded, as clang lays them out.
//
// Runs first: the translator marks packed structs (__attribute__((packed)))
// CPacked, which strip_kernel_decorations drops. A packed struct in global
// memory or passed by value is a CompileError: Vulkan needs every member at
// a multiple of its alignment, which packing breaks.
#include <set>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;

class LayOutGlobalMemory final : public Pass {
 public:
  std::string_view name() const override { return "lay_out_global_memory"; }

  void run(Module& m, LoweringContext&) override {
    std::set<uint32_t> roots;
    for (const Instruction& g : m.globals) {
      if (g.opcode != Op::OpTypePointer) continue;
      const auto storage = StorageClass(g.word(0));
      if (storage == StorageClass::CrossWorkgroup || storage == StorageClass::UniformConstant) roots.insert(g.word(1));
    }
    // By-value kernel arguments: pointers to Function memory among the entry points' parameters.
    for (const Instruction& ep : m.entry_points) {
      for (const Function& f : m.functions) {
        if (f.id() != ep.word(1)) continue;
        for (const Instruction& i : f.code)
          if (i.opcode == Op::OpFunctionParameter && m.storage_class_of(i.type_id) == StorageClass::Function)
            check_not_packed(m, m.pointee_of(i.type_id), "passed to a kernel by value");
      }
    }
    std::set<uint32_t> done;
    for (uint32_t type : roots) lay_out(m, type, done);
  }

 private:
  static void check_not_packed(const Module& m, uint32_t type, const char* where) {
    std::set<uint32_t> seen;
    check_not_packed(m, type, where, seen);
  }

  // `seen`: a struct used many times over (nested, or by many members) is
  // looked at once, not once per path to it.
  static void check_not_packed(const Module& m, uint32_t type, const char* where, std::set<uint32_t>& seen) {
    if (!seen.insert(type).second) return;
    const Instruction* t = m.find_global(type);
    if (t == nullptr) return;
    if (t->opcode == Op::OpTypeStruct) {
      if (m.has_decoration(type, spv::Decoration::CPacked))
        throw ProgramError("the packed struct '" + m.name_of(type) + "' " + where +
                           " is not supported: Vulkan needs every member aligned");
      for (uint32_t member : t->words) check_not_packed(m, member, where, seen);
    } else if (t->opcode == Op::OpTypeArray || t->opcode == Op::OpTypeRuntimeArray) {
      check_not_packed(m, t->word(0), where, seen);
    }
  }

  static void lay_out(Module& m, uint32_t type, std::set<uint32_t>& done) {
    if (!done.insert(type).second) return;
    const Instruction* found = m.find_global(type);
    if (found == nullptr) return;
    const Instruction t = *found;  // decorating may grow the module's vectors
    switch (t.opcode) {
      case Op::OpTypeStruct: {
        check_not_packed(m, type, "in global memory");
        uint32_t offset = 0;
        for (uint32_t member = 0; member < t.words.size(); ++member) {
          const Module::Layout layout = m.layout_of(t.word(member));
          offset = (offset + layout.alignment - 1) / layout.alignment * layout.alignment;
          if (!has_member_offset(m, type, member)) m.decorate_member(type, member, spv::Decoration::Offset, std::array{offset});
          offset += layout.size;
          lay_out(m, t.word(member), done);
        }
        break;
      }
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
        if (!m.has_decoration(type, spv::Decoration::ArrayStride))
          m.decorate(type, spv::Decoration::ArrayStride, std::array{m.layout_of(t.word(0)).size});
        lay_out(m, t.word(0), done);
        break;
      default:
        break;  // scalars, vectors and pointers need no decoration (pointees are roots of their own)
    }
  }

  static bool has_member_offset(const Module& m, uint32_t structure, uint32_t member) {
    for (const Instruction& a : m.annotations)
      if (a.opcode == Op::OpMemberDecorate && a.word(0) == structure && a.word(1) == member &&
          spv::Decoration(a.word(2)) == spv::Decoration::Offset)
        return true;
    return false;
  }
};

}  // namespace

std::unique_ptr<Pass> make_lay_out_global_memory() { return std::make_unique<LayOutGlobalMemory>(); }

}  // namespace vkcl::spirv
