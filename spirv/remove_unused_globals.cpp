// remove_unused_globals: deletes types, constants and variables nothing uses,
// and names and decorations of ids that no longer exist.
//
// The translator declares types only its Kernel-only instructions needed
// (an i8 pointer for lifetime markers, say); left in place they would make
// the module ask for device features (shaderInt8, ...) it does not use.
// Spec constants and decorated built-ins are kept: the host sets them.
//
// Expects strip_kernel_decorations to have run: every annotation left is an
// OpDecorate or OpMemberDecorate whose first operand is its target, and no
// other decoration's operands keep a global alive. Decoration groups and
// id decorations (which the translator emits only for the Kernel ABI) would
// break both; finding one is an internal error, not a silent wrong module.
#include <unordered_set>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

class RemoveUnusedGlobals final : public Pass {
 public:
  std::string_view name() const override { return "remove_unused_globals"; }

  void run(Module& m, LoweringContext&) override {
    for (const Instruction& a : m.annotations)
      if (a.opcode != Op::OpDecorate && a.opcode != Op::OpMemberDecorate)
        throw CompileError("internal error: remove_unused_globals found a Kernel-only annotation (opcode " +
                           std::to_string(uint32_t(a.opcode)) + "); strip_kernel_decorations must run first\n");
    for (bool changed = true; changed;) {
      std::unordered_set<uint32_t> used;
      auto collect = [&](std::vector<Instruction>& section) {
        for (Instruction& i : section) i.for_each_used_id([&](uint32_t& id) { used.insert(id); });
      };
      for (auto* section : {&m.entry_points, &m.execution_modes, &m.globals}) collect(*section);
      for (Function& f : m.functions) collect(f.code);
      for (const Instruction& a : m.annotations)  // decorations keep only what the host specializes
        if (a.opcode == Op::OpDecorate && (spv::Decoration(a.word(1)) == spv::Decoration::SpecId ||
                                           spv::Decoration(a.word(1)) == spv::Decoration::BuiltIn))
          used.insert(a.word(0));
      size_t before = m.globals.size();
      std::erase_if(m.globals, [&](const Instruction& g) { return g.result_id && !used.count(g.result_id); });
      changed = m.globals.size() != before;
    }

    std::unordered_set<uint32_t> defined;
    m.for_each_instruction([&](Instruction& i) {
      if (i.result_id) defined.insert(i.result_id);
    });
    auto targets_gone = [&](const Instruction& i) { return !i.words.empty() && !defined.count(i.word(0)); };
    std::erase_if(m.debug, targets_gone);
    std::erase_if(m.annotations, targets_gone);
  }
};

}  // namespace

std::unique_ptr<Pass> make_remove_unused_globals() { return std::make_unique<RemoveUnusedGlobals>(); }

}  // namespace vkcl::spirv
