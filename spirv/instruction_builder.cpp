#include "instruction_builder.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "compile_error.h"

namespace vkcl::spirv {

Shape InstructionBuilder::shape(uint32_t type) const {
  const Instruction* t = m_.find_global(type);
  if (t == nullptr) throw CompileError("internal error: unknown type %" + std::to_string(type) + "\n");
  Shape s;
  if (t->opcode == Op::OpTypeVector) {
    s.count = t->word(1);
    t = m_.find_global(t->word(0));
    if (t == nullptr) throw CompileError("internal error: a vector of an unknown type %" + std::to_string(type) + "\n");
  }
  s.kind = t->opcode;
  if (t->opcode == Op::OpTypeInt || t->opcode == Op::OpTypeFloat) s.width = t->word(0);
  return s;
}

uint32_t InstructionBuilder::type_of(uint32_t value) const {
  auto it = types_.find(value);
  if (it == types_.end()) throw CompileError("internal error: no type for %" + std::to_string(value) + "\n");
  return it->second;
}

uint32_t InstructionBuilder::constant(uint32_t type, uint64_t bits) {
  const Instruction* t = m_.find_global(type);
  if (t == nullptr) throw CompileError("internal error: a constant of unknown type %" + std::to_string(type) + "\n");
  if (t->opcode != Op::OpTypeVector) return m_.constant_int(type, bits);  // also right for float types: the bits
  // Read before constant_int, which may add to m_.globals and move *t.
  const uint32_t component_type = t->word(0), count = t->word(1);
  const uint32_t component = m_.constant_int(component_type, bits);
  Instruction composite(Op::OpConstantComposite, type, 0);
  for (uint32_t i = 0; i < count; ++i) composite.id(component);
  for (const Instruction& g : m_.globals)
    if (g.opcode == composite.opcode && g.type_id == type && g.words == composite.words) return g.result_id;
  composite.result_id = m_.new_id();
  m_.globals.push_back(composite);
  return composite.result_id;
}

namespace {

// The bits of `value` in the binary16, binary32 or binary64 format, when it is exact there.
std::optional<uint64_t> float_bits(double value, uint32_t width) {
  if (width == 64) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return bits;
  }
  if (width == 32) {
    const float f = float(value);
    if (double(f) != value && !std::isnan(value)) return std::nullopt;
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  if (width != 16 || std::isnan(value)) return std::nullopt;
  const uint64_t sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return sign | 0x7c00;
  if (magnitude == 0) return sign;
  int exponent;
  std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  exponent -= 1;                      // magnitude = 1.f * 2^exponent
  if (exponent > 15) return std::nullopt;
  // Normal: 10 fraction bits below the leading one; subnormal: multiples of 2^-24.
  const double unit = exponent >= -14 ? std::ldexp(1.0, exponent - 10) : std::ldexp(1.0, -24);
  const double units = magnitude / unit;
  if (units != std::floor(units)) return std::nullopt;
  if (exponent < -14) return sign | uint64_t(units);
  return sign | uint64_t(exponent + 15) << 10 | (uint64_t(units) - 1024);
}

}  // namespace

uint32_t InstructionBuilder::float_constant(uint32_t type, double value) {
  const Shape s = shape(type);
  const std::optional<uint64_t> bits = s.kind == Op::OpTypeFloat ? float_bits(value, s.width) : std::nullopt;
  if (!bits)
    throw CompileError("internal error: " + std::to_string(value) + " is no constant of a " + std::to_string(s.width) +
                       "-bit floating-point type\n");
  return constant(type, *bits);
}

uint32_t InstructionBuilder::op(Op opcode, uint32_t type, std::initializer_list<uint32_t> operands, uint32_t result) {
  Instruction i(opcode, type, result ? result : m_.new_id());
  for (uint32_t operand : operands) i.id(operand);
  const uint32_t id = i.result_id;
  emit(std::move(i));
  return id;
}

uint32_t InstructionBuilder::glsl(GLSLstd450 instruction, uint32_t type, std::span<const uint32_t> operands) {
  Instruction i(Op::OpExtInst, type, m_.new_id());
  i.id(glsl_import()).literal(instruction);
  for (uint32_t operand : operands) i.id(operand);
  const uint32_t id = i.result_id;
  emit(std::move(i));
  return id;
}

uint32_t InstructionBuilder::extract(uint32_t composite, uint32_t type, uint32_t index) {
  Instruction i(Op::OpCompositeExtract, type, m_.new_id());
  i.id(composite).literal(index);
  const uint32_t id = i.result_id;
  emit(std::move(i));
  return id;
}

void InstructionBuilder::emit(Instruction instruction) {
  if (instruction.result_id && instruction.type_id) types_[instruction.result_id] = instruction.type_id;
  out_.push_back(std::move(instruction));
}

void InstructionBuilder::finish(uint32_t value, uint32_t result) {
  if (!out_.empty() && out_.back().result_id == value && value >= first_new_id_ && value != result) {
    out_.back().result_id = result;
    types_[result] = out_.back().type_id;
    types_.erase(value);
    return;
  }
  op(Op::OpCopyObject, type_of(value), {value}, result);
}

uint32_t InstructionBuilder::glsl_import() {
  if (glsl_ == 0) {
    for (const Instruction& import : m_.ext_inst_imports)
      if (import.string_at(0) == "GLSL.std.450") glsl_ = import.result_id;
  }
  if (glsl_ == 0) {
    glsl_ = m_.new_id();
    m_.ext_inst_imports.push_back(std::move(Instruction(Op::OpExtInstImport, 0, glsl_).string("GLSL.std.450")));
  }
  return glsl_;
}

void expand_instructions(Module& m, const std::function<bool(InstructionBuilder&, Instruction&)>& expand) {
  for (Function& f : m.functions) {
    ValueTypes types = value_types(m, f);
    std::vector<Instruction> code;
    code.reserve(f.code.size());
    InstructionBuilder b(m, types, code);
    for (Instruction& i : f.code)
      if (!expand(b, i)) code.push_back(std::move(i));
    f.code = std::move(code);
  }
}

}  // namespace vkcl::spirv
