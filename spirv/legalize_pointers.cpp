// legalize_pointers: OpenCL pointers become pointers Vulkan accepts.
//
//  - CrossWorkgroup and UniformConstant pointer types become
//    PhysicalStorageBuffer pointer types, in place (same ids), so every value
//    of those types follows. Pointer types used as OpPtrAccessChain bases get
//    the ArrayStride of their pointee; loads and stores through them carry
//    Aligned (the translator's alignment, or the pointee's).
//  - A NULL global pointer (OpConstantNull of such a type, as `p == NULL`
//    compiles to) cannot be a constant: PhysicalStorageBuffer pointers have
//    no null value. Each function that uses one gets an OpConvertUToPtr of
//    0 at the top of its entry block instead.
//  - OpPtrAccessChain on Workgroup, Function and Private pointers is illegal
//    under logical addressing: each chain is folded into an OpAccessChain
//    rooted at its variable (&a[i] + j  →  &a[i + j]).
// Pointers to such memory chosen by phis and selects were rewritten by
// lower_pointer_selection, program-scope __constant variables by
// lower_program_scope_constants. Not handled yet (CompileError): pointers to
// __local/__private memory loaded from memory, casts between such pointer
// types, pointer arithmetic past a whole __local or __private variable (an
// element index other than 0 on the variable itself), the generic address
// space, and program-scope __global variables.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;

bool is_logical(std::optional<StorageClass> s) {
  return s == StorageClass::Workgroup || s == StorageClass::Function || s == StorageClass::Private;
}

using Definitions = std::unordered_map<uint32_t, size_t>;


class LegalizePointers final : public Pass {
 public:
  std::string_view name() const override { return "legalize_pointers"; }

  void run(Module& m, LoweringContext&) override {
    rewrite_storage_classes(m);
    materialize_null_pointers(m);
    std::set<uint32_t> strided_types;
    for (Function& f : m.functions) legalize(m, f, strided_types);
    for (uint32_t type : strided_types)
      if (!m.has_decoration(type, spv::Decoration::ArrayStride))
        m.decorate(type, spv::Decoration::ArrayStride, std::array{m.size_of(m.pointee_of(type))});
  }

 private:
  static void rewrite_storage_classes(Module& m) {
    for (Instruction& g : m.globals) {
      if (g.opcode == Op::OpVariable) {
        auto s = StorageClass(g.word(0));
        if (s == StorageClass::CrossWorkgroup || s == StorageClass::UniformConstant)
          throw ProgramError("program-scope __global variables ('" + m.name_of(g.result_id) +
                             "') are not supported yet");
      }
      if (g.opcode != Op::OpTypePointer) continue;
      auto s = StorageClass(g.word(0));
      if (s == StorageClass::CrossWorkgroup || s == StorageClass::UniformConstant)
        g.words[0] = uint32_t(StorageClass::PhysicalStorageBuffer);
      else if (s == StorageClass::Generic)
        throw ProgramError("generic address space pointers that clang cannot resolve are not supported yet");
    }
  }

  static void materialize_null_pointers(Module& m) {
    std::unordered_map<uint32_t, uint32_t> null_type;  // null constant -> its pointer type
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpConstantNull && m.storage_class_of(g.type_id) == StorageClass::PhysicalStorageBuffer)
        null_type[g.result_id] = g.type_id;
    if (null_type.empty()) return;
    for (const Instruction& g : m.globals)
      for (size_t w = 0; w < g.words.size(); ++w)
        if (g.is_id[w] && null_type.count(g.words[w]))
          throw ProgramError("a constant holding a NULL __global pointer ('" + m.name_of(g.result_id) +
                             "') is not supported yet");
    const uint32_t zero = m.constant_int(m.type_int(64), 0);
    for (Function& f : m.functions) {
      std::unordered_map<uint32_t, uint32_t> replacements;
      for (Instruction& i : f.code)
        i.for_each_used_id([&](uint32_t& id) {
          auto it = null_type.find(id);
          if (it == null_type.end()) return;
          auto [r, added] = replacements.try_emplace(id, 0);
          if (added) r->second = m.new_id();
          id = r->second;
        });
      if (replacements.empty()) continue;
      // After the entry block's label and its variables, which must come first.
      auto at = std::find_if(f.code.begin(), f.code.end(), [](const Instruction& i) { return i.opcode == Op::OpLabel; });
      if (at == f.code.end()) continue;
      ++at;
      while (at != f.code.end() && at->opcode == Op::OpVariable) ++at;
      std::vector<Instruction> conversions;
      for (const auto& [null, id] : replacements)
        conversions.push_back(Instruction(Op::OpConvertUToPtr, null_type.at(null), id).id(zero));
      f.code.insert(at, conversions.begin(), conversions.end());
    }
    std::erase_if(m.globals, [&](const Instruction& g) { return null_type.count(g.result_id) > 0; });
    std::erase_if(m.debug, [&](const Instruction& d) { return !d.words.empty() && null_type.count(d.word(0)); });
  }

  static void legalize(Module& m, Function& f, std::set<uint32_t>& strided_types) {
    ValueTypes types = value_types(m, f);
    Definitions defs;  // position in `code` of each chain and local variable emitted so far
    auto storage_of_value = [&](uint32_t id) -> std::optional<StorageClass> {
      auto it = types.find(id);
      return it == types.end() ? std::nullopt : m.storage_class_of(it->second);
    };

    std::vector<Instruction> code;
    code.reserve(f.code.size());
    for (Instruction& i : f.code) {
      if (is_chain(i.opcode)) {
        auto base_storage = storage_of_value(i.word(0));
        if (base_storage == StorageClass::PhysicalStorageBuffer) {
          if (i.opcode == Op::OpInBoundsPtrAccessChain) i.opcode = Op::OpPtrAccessChain;
          if (i.opcode == Op::OpPtrAccessChain) strided_types.insert(types.at(i.word(0)));
        } else if (is_logical(base_storage)) {
          i = fold_chain(m, i, defs, types, code);
        }
      } else if ((i.opcode == Op::OpPhi || i.opcode == Op::OpSelect || i.opcode == Op::OpBitcast) && i.type_id &&
                 is_logical(m.storage_class_of(i.type_id))) {
        throw ProgramError(std::string("a pointer to __local or __private memory that is ") +
                           (i.opcode == Op::OpBitcast ? "cast to another type" : "chosen at run time") +
                           " is not supported yet");
      } else if (i.opcode == Op::OpConvertPtrToU && is_logical(storage_of_value(i.word(0)))) {
        // Vulkan's Workgroup and Function memory has no addresses.
        throw ProgramError("converting a pointer to __local or __private memory to an integer is not supported");
      } else if (i.opcode == Op::OpLoad || i.opcode == Op::OpStore) {
        auto storage = storage_of_value(i.word(0));
        if (storage == StorageClass::PhysicalStorageBuffer) ensure_aligned(m, i, types.at(i.word(0)));
      }
      if (is_chain(i.opcode) || i.opcode == Op::OpVariable) defs[i.result_id] = code.size();
      code.push_back(std::move(i));
    }
    f.code = std::move(code);
  }

  // Rewrites `chain` (whose base is a Workgroup or Function pointer) as an
  // OpAccessChain from the root variable; may emit index arithmetic into `code`.
  static Instruction fold_chain(Module& m, const Instruction& chain, const Definitions& defs,
                                ValueTypes& types, std::vector<Instruction>& code) {
    bool has_element = chain.opcode == Op::OpPtrAccessChain || chain.opcode == Op::OpInBoundsPtrAccessChain;
    uint32_t base = chain.word(0);
    std::vector<uint32_t> tail(chain.words.begin() + 1 + (has_element ? 1 : 0), chain.words.end());

    auto def = defs.find(base);
    const Instruction* base_chain = def != defs.end() && is_chain(code[def->second].opcode) ? &code[def->second] : nullptr;
    bool base_is_variable = !base_chain && (def != defs.end() || m.find_global(base));
    if (!base_chain && !base_is_variable)
      throw ProgramError("a pointer to __local or __private memory that is chosen at run time is not supported yet");

    std::vector<uint32_t> indices;
    uint32_t root = base;
    if (base_chain) {
      root = base_chain->word(0);
      indices.assign(base_chain->words.begin() + 1, base_chain->words.end());
    }
    if (has_element) {
      uint32_t element = chain.word(1);
      bool zero = m.constant_value(element) == 0u;
      if (!zero) {
        if (indices.empty())
          throw ProgramError("pointer arithmetic past a whole __local or __private variable is not supported");
        indices.back() = add_index(m, indices.back(), element, types, code);
      }
    }
    indices.insert(indices.end(), tail.begin(), tail.end());
    Instruction folded(Op::OpAccessChain, chain.type_id, chain.result_id);
    folded.id(root);
    for (uint32_t index : indices) folded.id(index);
    return folded;
  }

  // index + element, in the index's integer type.
  static uint32_t add_index(Module& m, uint32_t index, uint32_t element,
                            ValueTypes& types, std::vector<Instruction>& code) {
    uint32_t index_type = types.at(index);
    uint32_t element_type = types.at(element);
    if (element_type != index_type) {
      uint32_t converted = m.new_id();
      code.push_back(std::move(Instruction(Op::OpSConvert, index_type, converted).id(element)));
      types[converted] = index_type;
      element = converted;
    }
    uint32_t sum = m.new_id();
    code.push_back(std::move(Instruction(Op::OpIAdd, index_type, sum).id(index).id(element)));
    types[sum] = index_type;
    return sum;
  }


  static void ensure_aligned(Module& m, Instruction& access, uint32_t pointer_type) {
    size_t mask_index = access.opcode == Op::OpLoad ? 1 : 2;
    auto aligned = uint32_t(spv::MemoryAccessMask::Aligned);
    if (access.words.size() > mask_index && (access.words[mask_index] & aligned)) return;
    uint32_t alignment = m.alignment_of(m.pointee_of(pointer_type));
    if (access.words.size() <= mask_index) {
      access.literal(aligned).literal(alignment);
      return;
    }
    // Aligned's literal comes first among the mask's extra operands.
    access.words[mask_index] |= aligned;
    access.words.insert(access.words.begin() + ptrdiff_t(mask_index) + 1, alignment);
    access.is_id.insert(access.is_id.begin() + ptrdiff_t(mask_index) + 1, false);
  }
};

}  // namespace

std::unique_ptr<Pass> make_legalize_pointers() { return std::make_unique<LegalizePointers>(); }

}  // namespace vkcl::spirv
