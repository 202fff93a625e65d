// strip_kernel_decorations: removes what only the OpenCL (Kernel) environment allows.
//
// Drops decorations Vulkan rejects or that describe the Kernel ABI
// (LinkageAttributes, FuncParamAttr, Alignment, Constant, NoSignedWrap, ...),
// debug strings other than names, OpLifetimeStart/Stop, and OpLine. Keeps the
// decorations later passes read (BuiltIn) or emit (SpecId, Offset, ...), and
// records the restrict parameters (FuncParamAttr NoAlias) for
// bind_storage_buffers. Drops the initializer of a Workgroup (__local)
// variable where it is undefined: OpenCL C cannot initialize __local
// variables, but the translator writes an undef struct with padding as an
// OpConstantComposite of OpUndefs, and Vulkan allows only OpConstantNull
// there (VUID-StandaloneSpirv-OpVariable-04734). Any other initializer stays,
// for the validator to refuse.
// OpenCL.std extended instructions are gone already (lower_opencl_std).
#include <algorithm>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

bool vulkan_keeps(spv::Decoration d) {
  using D = spv::Decoration;
  switch (d) {
    case D::BuiltIn: case D::SpecId: case D::ArrayStride: case D::Offset: case D::Block:
    case D::NonWritable: case D::NonReadable: case D::Restrict: case D::Aliased:
    case D::Coherent: case D::Volatile:
      return true;
    default:
      return false;
  }
}

// Whether global `id` is OpUndef or a composite made only of undefined parts.
bool undefined(const Module& m, uint32_t id) {
  const Instruction* value = m.find_global(id);
  if (value == nullptr) return false;
  if (value->opcode == Op::OpUndef) return true;
  if (value->opcode != Op::OpConstantComposite) return false;
  for (size_t w = 0; w < value->words.size(); ++w)
    if (!undefined(m, value->word(w))) return false;
  return true;
}

class StripKernelDecorations final : public Pass {
 public:
  std::string_view name() const override { return "strip_kernel_decorations"; }

  void run(Module& m, LoweringContext& context) override {
    for (const Instruction& a : m.annotations)
      if (a.opcode == Op::OpDecorate && spv::Decoration(a.word(1)) == spv::Decoration::FuncParamAttr &&
          spv::FunctionParameterAttribute(a.word(2)) == spv::FunctionParameterAttribute::NoAlias)
        context.restrict_parameters.insert(a.word(0));
    std::erase_if(m.annotations, [](const Instruction& a) {
      if (a.opcode == Op::OpDecorate) return !vulkan_keeps(spv::Decoration(a.word(1)));
      if (a.opcode == Op::OpMemberDecorate) return !vulkan_keeps(spv::Decoration(a.word(2)));
      return true;  // decoration groups and string decorations: the translator uses them only for Kernel ABI
    });
    std::erase_if(m.debug, [](const Instruction& d) {
      return d.opcode != Op::OpName && d.opcode != Op::OpMemberName;
    });
    std::erase_if(m.globals, [](const Instruction& g) { return g.opcode == Op::OpLine || g.opcode == Op::OpNoLine; });
    for (Instruction& g : m.globals)
      if (g.opcode == Op::OpVariable && spv::StorageClass(g.word(0)) == spv::StorageClass::Workgroup &&
          g.words.size() == 2 && undefined(m, g.word(1))) {
        g.words.pop_back();
        g.is_id.pop_back();
      }

    for (Function& f : m.functions) {
      std::erase_if(f.code, [](const Instruction& i) {
        return i.opcode == Op::OpLifetimeStart || i.opcode == Op::OpLifetimeStop || i.opcode == Op::OpLine ||
               i.opcode == Op::OpNoLine;
      });
    }
  }
};

}  // namespace

std::unique_ptr<Pass> make_strip_kernel_decorations() { return std::make_unique<StripKernelDecorations>(); }

}  // namespace vkcl::spirv
