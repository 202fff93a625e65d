// lower_long_vectors: vector types of 8 and 16 components become arrays.
//
// Vulkan allows vectors of 2, 3 and 4 components only (more need Vector16,
// a Kernel capability). clc has already split every value of such a type into
// scalars before translation (tools/clc/legalize_vectors.h); what remains are
// memory types: a float16 kernel argument in the push-constant block, __local
// or __private float16 variables, pointers to float16 in global memory, and
// structs holding them. Each such OpTypeVector is rewritten in place (same
// id) into an OpTypeArray of its components with ArrayStride the component's
// size, so every type, variable, access chain and composite instruction that
// names it follows: an access chain indexes an array as it indexed the
// vector, and OpCompositeExtract/Construct work on both.
//
// Runs after every pass that computes OpenCL layouts from types (an array
// has its element's alignment, a vector its own size), so offsets, strides
// and push-constant members were computed with the vector's layout, which
// the array's stride reproduces (components of these vectors are never
// padded). An instruction that still computes on such a vector (a missed
// split) is a CompileError, never invalid SPIR-V.
#include <algorithm>
#include <unordered_set>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

bool computes_on_vectors(Op op) {
  switch (op) {
    case Op::OpVectorShuffle: case Op::OpVectorExtractDynamic: case Op::OpVectorInsertDynamic:
    case Op::OpExtInst: case Op::OpDot:
      return true;
    default:
      return false;
  }
}

class LowerLongVectors final : public Pass {
 public:
  std::string_view name() const override { return "lower_long_vectors"; }

  void run(Module& m, LoweringContext&) override {
    std::unordered_set<uint32_t> long_vectors;
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpTypeVector && g.word(1) > 4) long_vectors.insert(g.result_id);
    if (long_vectors.empty()) return;
    check_no_arithmetic(m, long_vectors);

    const uint32_t uint_type = m.type_int(32);
    for (uint32_t vector : long_vectors)
      m.decorate(vector, spv::Decoration::ArrayStride, std::array{m.size_of(m.find_global(vector)->word(0))});
    std::vector<Instruction> globals;
    globals.reserve(m.globals.size() + long_vectors.size());
    bool uint_defined = false;
    for (Instruction& g : m.globals) {
      if (g.result_id == uint_type) uint_defined = true;
      if (g.opcode == Op::OpTypeVector && long_vectors.count(g.result_id)) {
        if (!uint_defined) {  // the length's type must come first
          auto it = std::find_if(m.globals.begin(), m.globals.end(),
                                 [&](const Instruction& t) { return t.result_id == uint_type; });
          globals.push_back(*it);
          it->opcode = Op::OpNop;  // dropped below
          uint_defined = true;
        }
        const uint32_t component = g.word(0), count = g.word(1);
        const uint32_t length = m.new_id();
        globals.push_back(std::move(Instruction(Op::OpConstant, uint_type, length).literal(count)));
        Instruction array(Op::OpTypeArray, 0, g.result_id);
        array.id(component).id(length);
        globals.push_back(std::move(array));
        continue;
      }
      globals.push_back(std::move(g));
    }
    std::erase_if(globals, [](const Instruction& g) { return g.opcode == Op::OpNop; });
    m.globals = std::move(globals);
  }

 private:
  static void check_no_arithmetic(Module& m, const std::unordered_set<uint32_t>& long_vectors) {
    for (Function& f : m.functions) {
      ValueTypes types = value_types(m, f);
      for (const Instruction& i : f.code) {
        bool uses = long_vectors.count(i.type_id) > 0;
        for (size_t w = 0; w < i.words.size() && !uses; ++w)
          if (i.is_id[w]) {
            auto t = types.find(i.words[w]);
            uses = t != types.end() && long_vectors.count(t->second) > 0;
          }
        if (!uses) continue;
        const bool allowed = i.opcode == Op::OpLoad || i.opcode == Op::OpStore || i.opcode == Op::OpCompositeExtract ||
                             i.opcode == Op::OpCompositeInsert || i.opcode == Op::OpCompositeConstruct ||
                             i.opcode == Op::OpCopyObject || i.opcode == Op::OpPhi || i.opcode == Op::OpUndef;
        if (!allowed || computes_on_vectors(i.opcode))
          throw CompileError("internal error: an operation on a vector of 8 or 16 components (SPIR-V "
                             "opcode " + std::to_string(uint32_t(i.opcode)) + ") reached the lowering unsplit");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_long_vectors() { return std::make_unique<LowerLongVectors>(); }

}  // namespace vkcl::spirv
