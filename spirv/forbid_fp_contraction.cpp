// forbid_fp_contraction: every floating-point arithmetic instruction is
// decorated NoContraction.
//
// OpenCL C rounds each operation (FP_CONTRACT contracts only within one
// expression, and clang then emits llvm.fmuladd, which reaches here as
// GLSL.std.450 Fma), and it never reassociates. Vulkan lets an
// implementation "rearrange floating-point operations using any of the
// mathematical properties governing the expressions in precise arithmetic"
// and fuse them, unless NoContraction says otherwise ("Evaluation of
// Expressions" in the Vulkan environment appendix); SPIRV-Tools' optimizer
// also merges float arithmetic (for instance (x * c1) * c2 into x * (c1 *
// c2)) on instructions without it. The builtin library's error-free
// transformations and argument reductions depend on each operation being
// rounded as written, and so does user code that compensates for rounding.
// Runs after strip_kernel_decorations (which drops the translator's
// decorations) and before the SPIR-V optimizer.
#include <unordered_set>

#include "passes.h"

namespace vkcl::spirv {
namespace {

bool is_float_arithmetic(Op opcode) {
  switch (opcode) {
    case Op::OpFNegate: case Op::OpFAdd: case Op::OpFSub: case Op::OpFMul: case Op::OpFDiv: case Op::OpFRem:
    case Op::OpFMod: case Op::OpVectorTimesScalar: case Op::OpDot:
      return true;
    default:
      return false;
  }
}

class ForbidFpContraction final : public Pass {
 public:
  std::string_view name() const override { return "forbid_fp_contraction"; }

  void run(Module& m, LoweringContext&) override {
    std::unordered_set<uint32_t> decorated;
    for (const Instruction& a : m.annotations)
      if (a.opcode == Op::OpDecorate && spv::Decoration(a.word(1)) == spv::Decoration::NoContraction)
        decorated.insert(a.word(0));
    for (const Function& f : m.functions)
      for (const Instruction& i : f.code)
        if (is_float_arithmetic(i.opcode) && decorated.insert(i.result_id).second)
          m.decorate(i.result_id, spv::Decoration::NoContraction);
  }
};

}  // namespace

std::unique_ptr<Pass> make_forbid_fp_contraction() { return std::make_unique<ForbidFpContraction>(); }

}  // namespace vkcl::spirv
