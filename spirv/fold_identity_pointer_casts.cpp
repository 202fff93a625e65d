// fold_identity_pointer_casts: an OpBitcast between two pointer types of the
// same storage class and pointee (types that differ only in decorations,
// such as the ArrayStride that OpPtrAccessChain needs on one of them) whose
// result is only loaded from or stored to is replaced by its operand.
//
// Such casts appear when declare_vulkan_module stores halves as ushort: a
// `half*` (with its ArrayStride) cast to the `ushort*` that vload_half reads
// through becomes a cast from a ushort pointer type to another. The
// validator accepts it, but NVIDIA's Vulkan driver (580.159.04, H100)
// crashes compiling it (tests/spirv: FoldIdentityPointerCasts). A load or
// store does not depend on which of the two types its pointer has. Casts
// with other uses (an access chain, whose element size may come from the
// type's ArrayStride) are left alone. Runs last.
#include <unordered_map>
#include <unordered_set>

#include "passes.h"

namespace vkcl::spirv {
namespace {

class FoldIdentityPointerCasts final : public Pass {
 public:
  std::string_view name() const override { return "fold_identity_pointer_casts"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) fold(m, f);
  }

 private:
  static void fold(Module& m, Function& f) {
    std::unordered_map<uint32_t, uint32_t> type_of;
    for (const Instruction& g : m.globals)
      if (g.result_id && g.type_id) type_of[g.result_id] = g.type_id;
    for (const Instruction& i : f.code)
      if (i.result_id && i.type_id) type_of[i.result_id] = i.type_id;

    std::unordered_map<uint32_t, uint32_t> casts;  // result -> operand
    for (const Instruction& i : f.code) {
      if (i.opcode != Op::OpBitcast) continue;
      auto operand_type = type_of.find(i.word(0));
      if (operand_type == type_of.end() || operand_type->second == i.type_id) continue;
      const auto to = m.storage_class_of(i.type_id), from = m.storage_class_of(operand_type->second);
      if (!to || !from || *to != *from || m.pointee_of(i.type_id) != m.pointee_of(operand_type->second)) continue;
      casts[i.result_id] = i.word(0);
    }
    if (casts.empty()) return;
    // Only casts whose every use is the pointer of a load or a store.
    for (const Instruction& i : f.code)
      for (size_t w = 0; w < i.words.size(); ++w) {
        if (!i.is_id[w] || !casts.count(i.words[w])) continue;
        const bool memory_access = (i.opcode == Op::OpLoad || i.opcode == Op::OpStore) && w == 0;
        if (!memory_access) casts.erase(i.words[w]);
      }
    std::unordered_set<uint32_t> folded;
    for (const auto& cast : casts) folded.insert(cast.first);
    // Names and decorations of the casts go first: they would move to the operand.
    std::erase_if(m.debug, [&](const Instruction& d) { return !d.words.empty() && folded.count(d.word(0)); });
    std::erase_if(m.annotations, [&](const Instruction& a) { return !a.words.empty() && folded.count(a.word(0)); });
    std::erase_if(f.code, [&](const Instruction& i) { return folded.count(i.result_id) > 0; });
    // No cast folded is the operand of another (that use is not a load or a store).
    m.replace_all_uses(casts);
  }
};

}  // namespace

std::unique_ptr<Pass> make_fold_identity_pointer_casts() { return std::make_unique<FoldIdentityPointerCasts>(); }

}  // namespace vkcl::spirv
