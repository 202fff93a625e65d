// InstructionBuilder: emits the code that replaces one instruction of a
// function, for the passes that expand an instruction into several
// (lower_opencl_std, lower_saturating_conversions, lower_rounding_modes,
// lower_signed_remainders).
//
// Every value it emits gets its type recorded in the function's ValueTypes,
// so that later expansions in the same function can ask for it. Constants
// are splatted to the shape of the type asked for (a scalar or a vector), and
// types and constants are found or created in the module, never duplicated.
#pragma once

#include <spirv/unified1/GLSL.std.450.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <vector>

#include "pass.h"

namespace vkcl::spirv {

// The shape of a scalar or vector type.
struct Shape {
  Op kind = Op::OpNop;  // OpTypeInt, OpTypeFloat or OpTypeBool
  uint32_t width = 0;   // bits of one component (0 for bool)
  uint32_t count = 1;   // components
};

class InstructionBuilder {
 public:
  InstructionBuilder(Module& m, ValueTypes& types, std::vector<Instruction>& out)
      : m_(m), types_(types), out_(out), first_new_id_(m.bound) {}

  Module& module() { return m_; }
  Shape shape(uint32_t type) const;
  uint32_t type_of(uint32_t value) const;

  // Types of `count` components (a scalar for 1).
  uint32_t shaped(uint32_t scalar, uint32_t count) { return count == 1 ? scalar : m_.type_vector(scalar, count); }
  uint32_t int_type(uint32_t width, uint32_t count) { return shaped(m_.type_int(width), count); }
  uint32_t float_type(uint32_t width, uint32_t count) { return shaped(m_.type_float(width), count); }
  uint32_t bool_type(uint32_t count) { return shaped(m_.type_bool(), count); }

  // A constant of `type` (scalar or vector) whose every component has the bits `bits`.
  uint32_t constant(uint32_t type, uint64_t bits);
  // A constant of the floating-point `type` (16, 32 or 64 bits, scalar or
  // vector) whose every component is `value`, which must be representable
  // exactly (infinities are); CompileError otherwise.
  uint32_t float_constant(uint32_t type, double value);

  // Emits `opcode` with id operands; its result is `result` when given, else a new id.
  uint32_t op(Op opcode, uint32_t type, std::initializer_list<uint32_t> operands, uint32_t result = 0);
  // Emits a GLSL.std.450 instruction (importing the set when the module has not yet).
  uint32_t glsl(GLSLstd450 instruction, uint32_t type, std::initializer_list<uint32_t> operands) {
    return glsl(instruction, type, std::span<const uint32_t>(operands.begin(), operands.size()));
  }
  uint32_t glsl(GLSLstd450 instruction, uint32_t type, std::span<const uint32_t> operands);
  // Emits OpCompositeExtract of component `index` of `composite`.
  uint32_t extract(uint32_t composite, uint32_t type, uint32_t index);
  // Appends an instruction as it is (its result's type recorded).
  void emit(Instruction instruction);
  // Makes `value` the replaced instruction's result `result`: renames the
  // instruction just emitted when it defined `value` and the builder made it
  // (nothing else can use it yet), else copies `value` with OpCopyObject.
  void finish(uint32_t value, uint32_t result);

 private:
  uint32_t glsl_import();

  Module& m_;
  ValueTypes& types_;
  std::vector<Instruction>& out_;
  uint32_t first_new_id_;  // ids from here on are the builder's own
  uint32_t glsl_ = 0;
};

// The loop of every pass that expands instructions: `expand` sees each
// instruction of each function in order, with a builder that writes the
// function's new code. It returns true when it emitted the instruction's
// replacement (InstructionBuilder::finish), false to keep the instruction as
// it is (it may have changed its operands).
void expand_instructions(Module& m, const std::function<bool(InstructionBuilder&, Instruction&)>& expand);

}  // namespace vkcl::spirv
