// A small, mutable SPIR-V module IR shared by every lowering pass.
//
// Instructions are kept in the sections of the logical layout (SPIR-V 2.4) so
// that a pass can add a type, a decoration or a global without caring where
// it must go. Each instruction records which of its operand words are ids,
// so that uses can be found and replaced without consulting the grammar
// again. The helpers find-or-create types and constants so that passes never
// emit duplicates, through an index that checks itself (GlobalIndex below).
//
// Why not SPIRV-Tools' own IR (source/opt: IRContext with its def-use,
// CFG, dominator and type analyses), as the SPIRV-Tools optimizer's passes
// use: Debian's spirv-tools package ships only the public headers
// (libspirv.hpp, optimizer.hpp, linker.hpp, instrument.hpp), and vkcl builds
// from Debian's packages alone. So vkcl keeps this small IR, and the analyses
// passes share live beside it (control_flow_graph.h).
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vkcl::spirv {

using spv::Op;

struct Instruction {
  Op opcode = Op::OpNop;
  uint32_t type_id = 0;
  uint32_t result_id = 0;
  std::vector<uint32_t> words;   // operands after the result id
  std::vector<bool> is_id;       // one flag per entry of `words`

  Instruction() = default;
  Instruction(Op op, uint32_t type, uint32_t result) : opcode(op), type_id(type), result_id(result) {}

  Instruction& id(uint32_t value) { return push(value, true); }
  Instruction& literal(uint32_t value) { return push(value, false); }
  Instruction& string(std::string_view text);

  uint32_t word(size_t i) const { return words.at(i); }
  std::string string_at(size_t first_word) const;
  // Calls `fn` on every id this instruction uses (type id included), allowing replacement.
  void for_each_used_id(const std::function<void(uint32_t&)>& fn);

 private:
  Instruction& push(uint32_t value, bool id) {
    words.push_back(value);
    is_id.push_back(id);
    return *this;
  }
};

struct Function {
  std::vector<Instruction> code;  // OpFunction ... OpFunctionEnd
  uint32_t id() const { return code.front().result_id; }
};

struct Module {
  uint32_t version = 0x10300;
  uint32_t generator = 0;
  uint32_t bound = 1;

  std::vector<Instruction> capabilities, extensions, ext_inst_imports, memory_model, entry_points,
      execution_modes, debug, annotations, globals;
  std::vector<Function> functions;

  uint32_t new_id() { return bound++; }

  // Parses a binary module; throws CompileError when it is not valid SPIR-V.
  static Module parse(std::span<const uint32_t> words);
  std::vector<uint32_t> serialize() const;

  // Every instruction, in layout order.
  void for_each_instruction(const std::function<void(Instruction&)>& fn);
  // Replaces every use of `from` (not its definition) with `to`.
  void replace_all_uses(uint32_t from, uint32_t to);
  // Replaces every use of each key with its value, in one walk of the
  // module (the values are not replaced again).
  void replace_all_uses(const std::unordered_map<uint32_t, uint32_t>& replacements);

  // Look-ups over the global section.
  const Instruction* find_global(uint32_t id) const;
  Instruction* find_global(uint32_t id);
  std::optional<uint32_t> decoration_literal(uint32_t target, spv::Decoration decoration) const;
  bool has_decoration(uint32_t target, spv::Decoration decoration) const;
  std::string name_of(uint32_t id) const;

  // Find-or-create for types and constants (all in `globals`).
  uint32_t type_void();
  uint32_t type_bool();
  uint32_t type_int(uint32_t width, bool is_signed = false);
  uint32_t type_float(uint32_t width);
  uint32_t type_vector(uint32_t component, uint32_t count);
  uint32_t type_pointer(spv::StorageClass storage, uint32_t pointee);
  uint32_t type_function(uint32_t return_type, std::span<const uint32_t> params = {});
  uint32_t constant_u32(uint32_t value);
  uint32_t constant_int(uint32_t type, uint64_t value);
  uint32_t constant_composite(uint32_t type, std::span<const uint32_t> constituents);

  void add_capability(spv::Capability capability);
  bool has_capability(spv::Capability capability) const;
  void add_extension(std::string_view name);
  void decorate(uint32_t target, spv::Decoration decoration, std::span<const uint32_t> literals = {});
  void decorate_member(uint32_t structure, uint32_t member, spv::Decoration decoration,
                       std::span<const uint32_t> literals = {});

  // Type queries.
  // The width of an OpTypeInt; of a vector's components too where asked.
  std::optional<uint32_t> integer_width(uint32_t type, bool vectors_too = false) const;
  uint32_t pointee_of(uint32_t pointer_type) const;
  std::optional<spv::StorageClass> storage_class_of(uint32_t pointer_type) const;
  // Size and alignment in bytes under OpenCL's layout (vec3 padded to vec4).
  struct Layout {
    uint32_t size = 0;
    uint32_t alignment = 1;
  };
  Layout layout_of(uint32_t type) const;
  uint32_t size_of(uint32_t type) const;
  uint32_t alignment_of(uint32_t type) const { return layout_of(type).alignment; }
  std::optional<uint64_t> constant_value(uint32_t id) const;

 private:
  uint32_t find_or_add_global(Instruction instruction);
  // Finds the global by a scan and, where found, refreshes the index.
  const Instruction* scan_globals(const std::function<bool(const Instruction&)>& matches) const;

  // The type and constant cache: where each global was last seen, by id and
  // by its operands. Passes edit `globals` directly (push_back, erase_if,
  // rewriting an instruction in place), so the index checks every hit
  // against `globals` before it answers, and a miss falls back to the scan
  // that was all there was before, which refreshes the index when it finds
  // what the index did not. It is never wrong, only sometimes no faster.
  struct OperandsHash {
    size_t operator()(const std::vector<uint32_t>& words) const;
  };
  struct GlobalIndex {
    std::unordered_map<uint32_t, size_t> position_by_id;
    std::unordered_map<std::vector<uint32_t>, uint32_t, OperandsHash> id_by_operands;
  };
  mutable GlobalIndex global_index_;
  void reindex_globals() const;
  const Instruction* indexed_global(uint32_t id) const;
};

// Instructions with no side effects and no dependence on where they run (no
// memory, no group operations), so that a copy elsewhere, or one computed
// where the original would not have been, gives the same value and does no harm.
bool is_pure_operation(Op op);

}  // namespace vkcl::spirv
