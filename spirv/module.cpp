#include "module.h"

#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "compile_error.h"

namespace vkcl::spirv {
namespace {

bool is_id_operand(spv_operand_type_t type) {
  switch (type) {
    case SPV_OPERAND_TYPE_ID:
    case SPV_OPERAND_TYPE_TYPE_ID:
    case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
    case SPV_OPERAND_TYPE_SCOPE_ID:
      return true;
    default:
      return false;
  }
}

std::vector<Instruction>* section_for(Module& m, Op op) {
  switch (op) {
    case Op::OpCapability: return &m.capabilities;
    case Op::OpExtension: return &m.extensions;
    case Op::OpExtInstImport: return &m.ext_inst_imports;
    case Op::OpMemoryModel: return &m.memory_model;
    case Op::OpEntryPoint: return &m.entry_points;
    case Op::OpExecutionMode:
    case Op::OpExecutionModeId: return &m.execution_modes;
    case Op::OpString:
    case Op::OpSourceExtension:
    case Op::OpSource:
    case Op::OpSourceContinued:
    case Op::OpName:
    case Op::OpMemberName:
    case Op::OpModuleProcessed: return &m.debug;
    case Op::OpDecorate:
    case Op::OpMemberDecorate:
    case Op::OpDecorationGroup:
    case Op::OpGroupDecorate:
    case Op::OpGroupMemberDecorate:
    case Op::OpDecorateId:
    case Op::OpDecorateString:
    case Op::OpMemberDecorateString: return &m.annotations;
    default: return &m.globals;
  }
}

struct ParseState {
  Module* module;
  Function* current_function = nullptr;
};

spv_result_t on_header(void* user_data, spv_endianness_t, uint32_t, uint32_t version, uint32_t generator,
                       uint32_t id_bound, uint32_t) {
  auto* state = static_cast<ParseState*>(user_data);
  state->module->version = version;
  state->module->generator = generator;
  state->module->bound = id_bound;
  return SPV_SUCCESS;
}

spv_result_t on_instruction(void* user_data, const spv_parsed_instruction_t* parsed) {
  auto* state = static_cast<ParseState*>(user_data);
  Module& m = *state->module;
  Instruction inst(static_cast<Op>(parsed->opcode), parsed->type_id, parsed->result_id);
  for (uint16_t i = 0; i < parsed->num_operands; ++i) {
    const spv_parsed_operand_t& operand = parsed->operands[i];
    if (operand.type == SPV_OPERAND_TYPE_TYPE_ID && parsed->type_id != 0 && operand.offset == 1) continue;
    if (operand.type == SPV_OPERAND_TYPE_RESULT_ID) continue;
    for (uint16_t w = 0; w < operand.num_words; ++w) {
      uint32_t value = parsed->words[operand.offset + w];
      if (is_id_operand(operand.type))
        inst.id(value);
      else
        inst.literal(value);
    }
  }
  if (inst.opcode == Op::OpFunction) {
    state->current_function = &m.functions.emplace_back();
  }
  if (state->current_function) {
    state->current_function->code.push_back(std::move(inst));
    if (parsed->opcode == static_cast<uint16_t>(Op::OpFunctionEnd)) state->current_function = nullptr;
  } else {
    section_for(m, inst.opcode)->push_back(std::move(inst));
  }
  return SPV_SUCCESS;
}

void append(std::vector<uint32_t>& out, const Instruction& inst) {
  uint32_t count = 1 + (inst.type_id ? 1 : 0) + (inst.result_id ? 1 : 0) + static_cast<uint32_t>(inst.words.size());
  out.push_back(count << 16 | static_cast<uint32_t>(inst.opcode));
  if (inst.type_id) out.push_back(inst.type_id);
  if (inst.result_id) out.push_back(inst.result_id);
  out.insert(out.end(), inst.words.begin(), inst.words.end());
}

bool same_operands(const Instruction& a, const Instruction& b) {
  return a.opcode == b.opcode && a.type_id == b.type_id && a.words == b.words;
}

}  // namespace

Instruction& Instruction::string(std::string_view text) {
  // Literal strings: UTF-8 bytes, nul-terminated, little-endian packed into words.
  std::vector<uint32_t> packed((text.size() + 4) / 4, 0);
  for (size_t i = 0; i < text.size(); ++i) packed[i / 4] |= uint32_t(uint8_t(text[i])) << (8 * (i % 4));
  for (uint32_t w : packed) literal(w);
  return *this;
}

std::string Instruction::string_at(size_t first_word) const {
  std::string text;
  for (size_t i = first_word; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      char c = char((words[i] >> (8 * b)) & 0xff);
      if (c == 0) return text;
      text.push_back(c);
    }
  }
  return text;
}

void Instruction::for_each_used_id(const std::function<void(uint32_t&)>& fn) {
  if (type_id) fn(type_id);
  for (size_t i = 0; i < words.size(); ++i)
    if (is_id[i]) fn(words[i]);
}

Module Module::parse(std::span<const uint32_t> words) {
  Module m;
  ParseState state{&m};
  std::unique_ptr<spv_context_t, decltype(&spvContextDestroy)> context(spvContextCreate(SPV_ENV_UNIVERSAL_1_6),
                                                                        spvContextDestroy);
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvBinaryParse(context.get(), &state, words.data(), words.size(), on_header, on_instruction, &diagnostic);
  if (result != SPV_SUCCESS) {
    std::string message = diagnostic ? diagnostic->error : "unknown error";
    spvDiagnosticDestroy(diagnostic);
    throw CompileError("internal error: the translator's SPIR-V does not parse: " + message);
  }
  return m;
}

std::vector<uint32_t> Module::serialize() const {
  std::vector<uint32_t> out = {spv::MagicNumber, version, generator, bound, 0};
  for (const auto* section : {&capabilities, &extensions, &ext_inst_imports, &memory_model, &entry_points,
                              &execution_modes, &debug, &annotations, &globals})
    for (const Instruction& inst : *section) append(out, inst);
  for (const Function& f : functions)
    for (const Instruction& inst : f.code) append(out, inst);
  return out;
}

void Module::for_each_instruction(const std::function<void(Instruction&)>& fn) {
  for (auto* section : {&capabilities, &extensions, &ext_inst_imports, &memory_model, &entry_points,
                        &execution_modes, &debug, &annotations, &globals})
    for (Instruction& inst : *section) fn(inst);
  for (Function& f : functions)
    for (Instruction& inst : f.code) fn(inst);
}

void Module::replace_all_uses(uint32_t from, uint32_t to) {
  for_each_instruction([&](Instruction& inst) {
    inst.for_each_used_id([&](uint32_t& id) {
      if (id == from) id = to;
    });
  });
}

namespace {

// The key of a type or constant: what makes two of them the same.
std::vector<uint32_t> operands_key(const Instruction& i) {
  std::vector<uint32_t> key{uint32_t(i.opcode), i.type_id};
  key.insert(key.end(), i.words.begin(), i.words.end());
  return key;
}

}  // namespace

size_t Module::OperandsHash::operator()(const std::vector<uint32_t>& words) const {
  size_t hash = 0xcbf29ce484222325u;
  for (uint32_t w : words) hash = (hash ^ w) * 0x100000001b3u;
  return hash;
}

void Module::reindex_globals() const {
  global_index_.position_by_id.clear();
  global_index_.id_by_operands.clear();
  for (size_t p = 0; p < globals.size(); ++p) {
    global_index_.position_by_id[globals[p].result_id] = p;
    global_index_.id_by_operands.try_emplace(operands_key(globals[p]), globals[p].result_id);
  }
}

const Instruction* Module::indexed_global(uint32_t id) const {
  auto it = global_index_.position_by_id.find(id);
  if (it == global_index_.position_by_id.end() || it->second >= globals.size()) return nullptr;
  const Instruction& g = globals[it->second];
  return g.result_id == id ? &g : nullptr;
}

const Instruction* Module::scan_globals(const std::function<bool(const Instruction&)>& matches) const {
  auto it = std::find_if(globals.begin(), globals.end(), matches);
  if (it == globals.end()) return nullptr;
  reindex_globals();
  return &*it;
}

void Module::replace_all_uses(const std::unordered_map<uint32_t, uint32_t>& replacements) {
  if (replacements.empty()) return;
  for_each_instruction([&](Instruction& inst) {
    inst.for_each_used_id([&](uint32_t& id) {
      if (auto it = replacements.find(id); it != replacements.end()) id = it->second;
    });
  });
}

const Instruction* Module::find_global(uint32_t id) const {
  if (id == 0) return nullptr;
  if (const Instruction* g = indexed_global(id)) return g;
  return scan_globals([&](const Instruction& i) { return i.result_id == id; });
}

Instruction* Module::find_global(uint32_t id) {
  return const_cast<Instruction*>(std::as_const(*this).find_global(id));
}

std::optional<uint32_t> Module::decoration_literal(uint32_t target, spv::Decoration decoration) const {
  for (const Instruction& a : annotations)
    if (a.opcode == Op::OpDecorate && a.word(0) == target && a.word(1) == uint32_t(decoration))
      return a.words.size() > 2 ? a.word(2) : 0;
  return std::nullopt;
}

bool Module::has_decoration(uint32_t target, spv::Decoration decoration) const {
  return decoration_literal(target, decoration).has_value();
}

std::string Module::name_of(uint32_t id) const {
  for (const Instruction& d : debug)
    if (d.opcode == Op::OpName && d.word(0) == id) return d.string_at(1);
  return {};
}

uint32_t Module::find_or_add_global(Instruction inst) {
  std::vector<uint32_t> key = operands_key(inst);
  if (auto it = global_index_.id_by_operands.find(key); it != global_index_.id_by_operands.end())
    if (const Instruction* g = indexed_global(it->second); g && same_operands(*g, inst)) return g->result_id;
  if (const Instruction* g = scan_globals([&](const Instruction& i) { return same_operands(i, inst); }))
    return g->result_id;
  inst.result_id = new_id();
  globals.push_back(inst);
  global_index_.position_by_id[inst.result_id] = globals.size() - 1;
  global_index_.id_by_operands[std::move(key)] = inst.result_id;
  return inst.result_id;
}

std::optional<uint32_t> Module::integer_width(uint32_t type, bool vectors_too) const {
  const Instruction* t = find_global(type);
  if (vectors_too && t != nullptr && t->opcode == Op::OpTypeVector) t = find_global(t->word(0));
  if (t == nullptr || t->opcode != Op::OpTypeInt) return std::nullopt;
  return t->word(0);
}

uint32_t Module::type_void() { return find_or_add_global(Instruction(Op::OpTypeVoid, 0, 0)); }
uint32_t Module::type_bool() { return find_or_add_global(Instruction(Op::OpTypeBool, 0, 0)); }

uint32_t Module::type_int(uint32_t width, bool is_signed) {
  // The translator declares every integer type unsigned; signedness is in the instructions.
  return find_or_add_global(std::move(Instruction(Op::OpTypeInt, 0, 0).literal(width).literal(is_signed ? 1 : 0)));
}

uint32_t Module::type_float(uint32_t width) {
  return find_or_add_global(std::move(Instruction(Op::OpTypeFloat, 0, 0).literal(width)));
}

uint32_t Module::type_vector(uint32_t component, uint32_t count) {
  return find_or_add_global(std::move(Instruction(Op::OpTypeVector, 0, 0).id(component).literal(count)));
}

uint32_t Module::type_pointer(spv::StorageClass storage, uint32_t pointee) {
  return find_or_add_global(std::move(Instruction(Op::OpTypePointer, 0, 0).literal(uint32_t(storage)).id(pointee)));
}

uint32_t Module::type_function(uint32_t return_type, std::span<const uint32_t> params) {
  Instruction inst(Op::OpTypeFunction, 0, 0);
  inst.id(return_type);
  for (uint32_t p : params) inst.id(p);
  return find_or_add_global(std::move(inst));
}

uint32_t Module::constant_u32(uint32_t value) { return constant_int(type_int(32), value); }

uint32_t Module::constant_int(uint32_t type, uint64_t value) {
  Instruction inst(Op::OpConstant, type, 0);
  const Instruction* t = find_global(type);
  inst.literal(uint32_t(value));
  if (t && t->word(0) == 64) inst.literal(uint32_t(value >> 32));
  return find_or_add_global(std::move(inst));
}

uint32_t Module::constant_composite(uint32_t type, std::span<const uint32_t> constituents) {
  Instruction inst(Op::OpConstantComposite, type, 0);
  for (uint32_t c : constituents) inst.id(c);
  return find_or_add_global(std::move(inst));
}

void Module::add_capability(spv::Capability capability) {
  if (!has_capability(capability))
    capabilities.push_back(std::move(Instruction(Op::OpCapability, 0, 0).literal(uint32_t(capability))));
}

bool Module::has_capability(spv::Capability capability) const {
  return std::any_of(capabilities.begin(), capabilities.end(),
                     [&](const Instruction& c) { return c.word(0) == uint32_t(capability); });
}

void Module::add_extension(std::string_view name) {
  for (const Instruction& e : extensions)
    if (e.string_at(0) == name) return;
  extensions.push_back(std::move(Instruction(Op::OpExtension, 0, 0).string(name)));
}

void Module::decorate(uint32_t target, spv::Decoration decoration, std::span<const uint32_t> literals) {
  Instruction inst(Op::OpDecorate, 0, 0);
  inst.id(target).literal(uint32_t(decoration));
  for (uint32_t l : literals) inst.literal(l);
  annotations.push_back(std::move(inst));
}

void Module::decorate_member(uint32_t structure, uint32_t member, spv::Decoration decoration,
                             std::span<const uint32_t> literals) {
  Instruction inst(Op::OpMemberDecorate, 0, 0);
  inst.id(structure).literal(member).literal(uint32_t(decoration));
  for (uint32_t l : literals) inst.literal(l);
  annotations.push_back(std::move(inst));
}

uint32_t Module::pointee_of(uint32_t pointer_type) const {
  const Instruction* t = find_global(pointer_type);
  if (!t || t->opcode != Op::OpTypePointer) throw CompileError("internal error: %" + std::to_string(pointer_type) + " is not a pointer type");
  return t->word(1);
}

std::optional<spv::StorageClass> Module::storage_class_of(uint32_t pointer_type) const {
  const Instruction* t = find_global(pointer_type);
  if (!t || t->opcode != Op::OpTypePointer) return std::nullopt;
  return spv::StorageClass(t->word(0));
}

Module::Layout Module::layout_of(uint32_t type) const {
  const Instruction* t = find_global(type);
  if (!t) throw CompileError("internal error: unknown type %" + std::to_string(type));
  switch (t->opcode) {
    case Op::OpTypeInt:
    case Op::OpTypeFloat: return {t->word(0) / 8, t->word(0) / 8};
    case Op::OpTypePointer: return {8, 8};
    case Op::OpTypeVector: {  // OpenCL pads 3-element vectors to 4
      uint32_t padded = (t->word(1) == 3 ? 4 : t->word(1)) * layout_of(t->word(0)).size;
      return {padded, padded};
    }
    case Op::OpTypeArray: {
      auto length = constant_value(t->word(1));
      if (!length) throw CompileError("internal error: array %" + std::to_string(type) + " has no constant length");
      Layout element = layout_of(t->word(0));
      return {uint32_t(*length) * element.size, element.alignment};
    }
    case Op::OpTypeRuntimeArray:  // sized by its buffer: alignment only (size_of rejects it)
      return {0, layout_of(t->word(0)).alignment};
    case Op::OpTypeStruct: {
      Layout layout{0, 1};
      for (uint32_t member : t->words) {
        Layout m = layout_of(member);
        layout.size = (layout.size + m.alignment - 1) / m.alignment * m.alignment + m.size;
        layout.alignment = std::max(layout.alignment, m.alignment);
      }
      layout.size = (layout.size + layout.alignment - 1) / layout.alignment * layout.alignment;
      return layout;
    }
    default: throw CompileError("internal error: type %" + std::to_string(type) + " has no layout");
  }
}

uint32_t Module::size_of(uint32_t type) const {
  const Instruction* t = find_global(type);
  if (t && t->opcode == Op::OpTypeRuntimeArray)
    throw CompileError("internal error: type %" + std::to_string(type) + " has no size");
  return layout_of(type).size;
}

std::optional<uint64_t> Module::constant_value(uint32_t id) const {
  const Instruction* c = find_global(id);
  if (c && c->opcode == Op::OpConstantNull) {
    const Instruction* type = find_global(c->type_id);
    if (type && type->opcode == Op::OpTypeInt) return 0;
  }
  if (!c || c->opcode != Op::OpConstant) return std::nullopt;
  uint64_t value = c->word(0);
  if (c->words.size() > 1) value |= uint64_t(c->word(1)) << 32;
  return value;
}

bool is_pure_operation(Op op) {
  const auto in = [op](Op first, Op last) { return uint32_t(op) >= uint32_t(first) && uint32_t(op) <= uint32_t(last); };
  return in(Op::OpVectorExtractDynamic, Op::OpCopyObject) ||  // vector and composite access, OpCopyObject
         in(Op::OpConvertFToU, Op::OpConvertUToF) || in(Op::OpUConvert, Op::OpFConvert) || op == Op::OpBitcast ||
         in(Op::OpSNegate, Op::OpSMulExtended) ||           // arithmetic
         in(Op::OpAny, Op::OpFUnordGreaterThanEqual) ||     // relational, logical, OpSelect, comparisons
         in(Op::OpShiftRightLogical, Op::OpBitCount);       // shifts and bit operations
}

}  // namespace vkcl::spirv
