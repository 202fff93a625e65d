#include "emulate_flush_to_zero.h"

#include <unordered_map>

#include "instruction_builder.h"
#include "module.h"
#include "pass.h"

namespace vkcl::test {
namespace {

using spirv::Instruction;
using spirv::InstructionBuilder;
using spirv::Module;
using spirv::Op;

// The instructions a flushing device flushes: float arithmetic, comparisons
// and conversions from float (and GLSL.std.450, checked by the caller).
bool flushes(Op op) {
  switch (op) {
    case Op::OpFNegate:
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpVectorTimesScalar:
    case Op::OpDot:
    case Op::OpFOrdEqual:
    case Op::OpFUnordEqual:
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordNotEqual:
    case Op::OpFOrdLessThan:
    case Op::OpFUnordLessThan:
    case Op::OpFOrdGreaterThan:
    case Op::OpFUnordGreaterThan:
    case Op::OpFOrdLessThanEqual:
    case Op::OpFUnordLessThanEqual:
    case Op::OpFOrdGreaterThanEqual:
    case Op::OpFUnordGreaterThanEqual:
    case Op::OpFConvert:
    case Op::OpConvertFToS:
    case Op::OpConvertFToU: return true;
    default: return false;
  }
}

bool is_float32(InstructionBuilder& b, uint32_t type) {
  const spirv::Shape s = b.shape(type);
  return s.kind == Op::OpTypeFloat && s.width == 32;
}

// `value` (of the float type `type`) with a subnormal replaced by a zero of
// its sign: bits & 0x7fffffff < 0x00800000 ? bits & 0x80000000 : bits.
uint32_t flush(InstructionBuilder& b, uint32_t value, uint32_t type, uint32_t result = 0) {
  const uint32_t count = b.shape(type).count;
  const uint32_t uint_type = b.int_type(32, count), bool_type = b.bool_type(count);
  const uint32_t bits = b.op(Op::OpBitcast, uint_type, {value});
  const uint32_t magnitude = b.op(Op::OpBitwiseAnd, uint_type, {bits, b.constant(uint_type, 0x7fffffffu)});
  const uint32_t tiny = b.op(Op::OpULessThan, bool_type, {magnitude, b.constant(uint_type, 0x00800000u)});
  const uint32_t sign = b.op(Op::OpBitwiseAnd, uint_type, {bits, b.constant(uint_type, 0x80000000u)});
  const uint32_t flushed = b.op(Op::OpSelect, uint_type, {tiny, sign, bits});
  return b.op(Op::OpBitcast, type, {flushed}, result);
}

}  // namespace

std::vector<uint32_t> emulate_float_flush_to_zero(std::span<const uint32_t> words) {
  Module m = Module::parse(words);
  uint32_t glsl = 0;
  for (const Instruction& import : m.ext_inst_imports)
    if (import.string_at(0) == "GLSL.std.450") glsl = import.result_id;
  // Each rewritten instruction's result gets a new id, and the flushed value
  // the old one, so that its users need no change; its decorations
  // (NoContraction) move with it.
  std::unordered_map<uint32_t, uint32_t> renamed;
  for (spirv::Function& function : m.functions) {
    spirv::ValueTypes types = spirv::value_types(m, function);
    std::vector<Instruction> code;
    code.reserve(function.code.size());
    for (Instruction& inst : function.code) {
      const bool glsl_instruction = inst.opcode == Op::OpExtInst && glsl != 0 && inst.words.at(0) == glsl;
      if (!flushes(inst.opcode) && !glsl_instruction) {
        code.push_back(std::move(inst));
        continue;
      }
      InstructionBuilder b(m, types, code);
      for (size_t i = glsl_instruction ? 2 : 0; i < inst.words.size(); ++i) {
        if (!inst.is_id[i]) continue;
        const auto type = types.find(inst.words[i]);
        if (type == types.end() || !is_float32(b, type->second)) continue;
        inst.words[i] = flush(b, inst.words[i], type->second);
      }
      if (inst.type_id == 0 || !is_float32(b, inst.type_id)) {
        b.emit(std::move(inst));
        continue;
      }
      if (inst.opcode == Op::OpFDiv) {
        // x / y as x * (1 / y), the reciprocal flushed: so a divisor beyond
        // 2^126 gives 0 (Vulkan's OpFDiv is only specified for divisors in
        // [2^-126, 2^126], and NVIDIA's divides this way).
        const uint32_t one = b.constant(inst.type_id, 0x3f800000u);
        const uint32_t reciprocal = b.op(Op::OpFDiv, inst.type_id, {one, inst.words.at(1)});
        inst.opcode = Op::OpFMul;
        inst.words[1] = flush(b, reciprocal, inst.type_id);
      }
      const uint32_t result = inst.result_id, type = inst.type_id, raw = m.new_id();
      inst.result_id = raw;
      renamed[result] = raw;
      b.emit(std::move(inst));
      flush(b, raw, type, result);
    }
    function.code = std::move(code);
  }
  for (Instruction& annotation : m.annotations) {
    if (annotation.opcode != Op::OpDecorate) continue;
    const auto it = renamed.find(annotation.words.at(0));
    if (it != renamed.end()) annotation.words[0] = it->second;
  }
  return m.serialize();
}

}  // namespace vkcl::test
