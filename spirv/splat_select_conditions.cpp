// splat_select_conditions: OpSelect between vectors with a scalar condition
// gets a vector condition.
//
// SPIR-V 1.4 allows a scalar bool to select between whole vectors, and
// SPIRV-LLVM-Translator (asked for SPIR-V 1.4) emits that for LLVM's
// `select i1 %c, <4 x float> ...`; the modules vkcl writes are SPIR-V 1.3
// (Vulkan 1.1), where the condition must have as many components as the
// result. The condition is splatted with OpCompositeConstruct.
#include "passes.h"

namespace vkcl::spirv {
namespace {

class SplatSelectConditions final : public Pass {
 public:
  std::string_view name() const override { return "splat_select_conditions"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) {
      ValueTypes types = value_types(m, f);
      std::vector<Instruction> code;
      code.reserve(f.code.size());
      for (Instruction& i : f.code) {
        if (i.opcode == Op::OpSelect) {
          const Instruction* result = m.find_global(i.type_id);
          const Instruction* condition = m.find_global(types.at(i.word(0)));
          if (result && result->opcode == Op::OpTypeVector && condition && condition->opcode == Op::OpTypeBool) {
            const uint32_t count = result->word(1);
            Instruction splat(Op::OpCompositeConstruct, m.type_vector(m.type_bool(), count), m.new_id());
            for (uint32_t c = 0; c < count; ++c) splat.id(i.word(0));
            i.words[0] = splat.result_id;
            code.push_back(std::move(splat));
          }
        }
        code.push_back(std::move(i));
      }
      f.code = std::move(code);
    }
  }
};

}  // namespace

std::unique_ptr<Pass> make_splat_select_conditions() { return std::make_unique<SplatSelectConditions>(); }

}  // namespace vkcl::spirv
