// lower_program_scope_constants: program-scope __constant variables become
// Private variables initialised with their constant.
//
// The translator emits a program-scope __constant array (`__constant float
// weights[5] = {...}`), and each private array with a constant initialiser
// that clang turned into one (`int table[8] = {...}` in a kernel becomes
// `__const.kernel.table`), as a UniformConstant variable with an
// OpConstantComposite initialiser. Vulkan has no such storage class for
// plain data. Such a variable becomes a Private variable with the same
// initialiser: a module-scope constant table each invocation reads, indexed
// at run time like any array (drivers keep never-written Private tables in
// constant memory). Every pointer derived from it (access chains, phis,
// selects, copies) gets the Private pointer type of its pointee, so
// legalize_pointers folds its access chains like those of other logical
// variables, and lower_pointer_selection handles pointers chosen among such
// tables at run time. The UniformConstant pointer types of __constant kernel
// arguments are left alone (legalize_pointers makes them buffer addresses).
//
// CompileError (never invalid SPIR-V): a program-scope __constant variable
// without an initialiser, and a pointer that may point either to such a
// variable or to a __constant kernel argument (one is a Private variable,
// the other a buffer address). Program-scope __global variables stay an
// error of legalize_pointers.
#include <algorithm>
#include <map>
#include <set>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;


class LowerProgramScopeConstants final : public Pass {
 public:
  std::string_view name() const override { return "lower_program_scope_constants"; }

  void run(Module& m, LoweringContext&) override {
    std::set<uint32_t> variables;
    for (size_t g = 0; g < m.globals.size(); ++g) {
      if (m.globals[g].opcode != Op::OpVariable || StorageClass(m.globals[g].word(0)) != StorageClass::UniformConstant)
        continue;
      if (m.globals[g].words.size() < 2)
        throw ProgramError("the program-scope __constant variable '" + m.name_of(m.globals[g].result_id) +
                           "' has no initializer");
      const uint32_t type = private_type(m, m.globals[g].type_id);  // may add to m.globals
      Instruction& variable = m.globals[g];
      variable.type_id = type;
      variable.words[0] = uint32_t(StorageClass::Private);
      variables.insert(variable.result_id);
      // The new pointer type went to the end; the variable needs it first.
      auto type_at = std::find_if(m.globals.begin(), m.globals.end(),
                                  [&](const Instruction& i) { return i.result_id == type; });
      if (size_t(type_at - m.globals.begin()) > g) {
        Instruction moved = std::move(*type_at);
        m.globals.erase(type_at);
        m.globals.insert(m.globals.begin() + ptrdiff_t(g), std::move(moved));
        ++g;
      }
    }
    if (variables.empty()) return;
    for (Function& f : m.functions) retype_derived_pointers(m, f, variables);
  }

 private:
  // The Private pointer type with the pointee of UniformConstant pointer type `type`.
  static uint32_t private_type(Module& m, uint32_t type) {
    return m.type_pointer(StorageClass::Private, m.pointee_of(type));
  }

  static uint32_t undefined(Module& m, uint32_t type) {
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpUndef && g.type_id == type) return g.result_id;
    const uint32_t id = m.new_id();
    m.globals.push_back(Instruction(Op::OpUndef, type, id));
    return id;
  }

  static bool is_uniform_constant_pointer(const Module& m, uint32_t type) {
    return type != 0 && m.storage_class_of(type) == StorageClass::UniformConstant;
  }

  // Pointer operands of an instruction that derives a pointer from pointers.
  static std::vector<uint32_t> pointer_operands(const Instruction& i) {
    if (is_chain(i.opcode) || i.opcode == Op::OpBitcast || i.opcode == Op::OpCopyObject) return {i.word(0)};
    if (i.opcode == Op::OpSelect) return {i.word(1), i.word(2)};
    if (i.opcode == Op::OpPhi) {
      std::vector<uint32_t> operands;
      for (size_t w = 0; w < i.words.size(); w += 2) operands.push_back(i.word(w));
      return operands;
    }
    return {};
  }

  static void retype_derived_pointers(Module& m, Function& f, std::set<uint32_t> derived) {
    // Phis may use values defined further down: iterate to a fixed point.
    for (bool changed = true; changed;) {
      changed = false;
      for (Instruction& i : f.code) {
        if (!is_uniform_constant_pointer(m, i.type_id) || derived.count(i.result_id)) continue;
        std::vector<uint32_t> operands = pointer_operands(i);
        if (std::ranges::any_of(operands, [&](uint32_t id) { return derived.count(id) > 0; })) {
          derived.insert(i.result_id);
          changed = true;
        }
      }
    }
    for (Instruction& i : f.code) {
      if (!derived.count(i.result_id) || !is_uniform_constant_pointer(m, i.type_id)) continue;
      const uint32_t type = private_type(m, i.type_id);
      for (size_t w = 0; w < i.words.size(); ++w) {
        const uint32_t id = i.words[w];
        if (!i.is_id[w] || derived.count(id) || !std::ranges::count(pointer_operands(i), id)) continue;
        const Instruction* global = m.find_global(id);
        if (global == nullptr || (global->opcode != Op::OpConstantNull && global->opcode != Op::OpUndef))
          throw ProgramError("a __constant pointer that may point either to a program-scope __constant "
                             "variable or to a __constant kernel argument is not supported");
        // A null or undefined pointer where a table was chosen: never dereferenced in a correct program.
        i.words[w] = undefined(m, type);
      }
      i.type_id = type;
    }
    // Function calls cannot take them: everything but the kernel is inlined.
    for (const Instruction& i : f.code)
      if (i.opcode == Op::OpFunctionCall)
        for (size_t w = 1; w < i.words.size(); ++w)
          if (derived.count(i.word(w)))
            throw ProgramError("a pointer to a program-scope __constant variable passed to a function that "
                               "was not inlined is not supported");
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_program_scope_constants() { return std::make_unique<LowerProgramScopeConstants>(); }

}  // namespace vkcl::spirv
