#include "legalize_integer_widths.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "compile_error.h"
#include "source_locations.h"

namespace vkcl {
namespace {

bool legal_width(unsigned width) { return width == 1 || width == 8 || width == 16 || width == 32 || width == 64; }

// The integer width of a scalar or vector integer type, 0 for other types.
unsigned integer_width(const llvm::Type* type) {
  const auto* integer = llvm::dyn_cast<llvm::IntegerType>(type->getScalarType());
  return integer ? integer->getBitWidth() : 0;
}
bool is_illegal(const llvm::Type* type) {
  const unsigned width = integer_width(type);
  return width != 0 && !legal_width(width);
}
bool has_illegal_operand(const llvm::Instruction& instruction) {
  for (const llvm::Use& operand : instruction.operands())
    if (is_illegal(operand->getType())) return true;
  return false;
}

// Widens the illegal integer values of one function.
class Legalizer {
 public:
  Legalizer(llvm::Function& function, std::string_view file_name) : function_(function), file_name_(file_name) {}

  void run() {
    // Definitions before uses (phis aside, filled in at the end); blocks no
    // path reaches come last, so that nothing is left using an old value.
    std::vector<llvm::BasicBlock*> blocks;
    std::unordered_set<llvm::BasicBlock*> seen;
    for (llvm::BasicBlock* block : llvm::ReversePostOrderTraversal<llvm::Function*>(&function_)) {
      blocks.push_back(block);
      seen.insert(block);
    }
    for (llvm::BasicBlock& block : function_)
      if (!seen.count(&block)) blocks.push_back(&block);
    for (llvm::Argument& argument : function_.args())
      if (is_illegal(argument.getType()))
        throw CompileError(std::string(file_name_) + ": error: a function argument of type " + type_name(argument.getType()) +
                           " is not supported (SPIR-V has no such integer type)\n");

    for (llvm::BasicBlock* block : blocks)
      for (llvm::Instruction& instruction : *block) {
        if (is_illegal(instruction.getType())) {
          widen_result(instruction);
        } else if (has_illegal_operand(instruction)) {
          widen_operands(instruction);
        }
      }
    for (auto& [old_phi, new_phi] : phis_)
      for (unsigned edge = 0; edge < old_phi->getNumIncomingValues(); ++edge)
        new_phi->addIncoming(wide(old_phi->getIncomingValue(edge), *old_phi), old_phi->getIncomingBlock(edge));

    for (llvm::Instruction* instruction : dead_) instruction->dropAllReferences();
    for (llvm::Instruction* instruction : dead_) {
      if (!instruction->use_empty())
        throw CompileError(location_of(*instruction, file_name_) +
                           ": error: internal compiler error: a widened integer value is still in use\n");
      instruction->eraseFromParent();
    }
  }

 private:
  static std::string type_name(llvm::Type* type) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    type->print(stream);
    return stream.str();
  }

  [[noreturn]] void unsupported(const llvm::Instruction& instruction) const {
    llvm::Type* type = instruction.getType();
    for (const llvm::Use& operand : instruction.operands())
      if (!is_illegal(type)) type = operand->getType();
    throw CompileError(location_of(instruction, file_name_) + ": error: the optimizer made a '" +
                       instruction.getOpcodeName() + "' of " + type_name(type) +
                       ", an integer of a width SPIR-V has no type for, which vkcl cannot widen; please report "
                       "this kernel\n");
  }

  // The type that holds a value of `type` (illegal width) zero-extended.
  llvm::Type* wide_type(llvm::Type* type, const llvm::Instruction& where) const {
    const unsigned width = integer_width(type);
    if (width > 64)
      throw CompileError(location_of(where, file_name_) + ": error: " + std::to_string(width) +
                         "-bit integers are not supported (the optimizer made one here; SPIR-V integers have at most 64 bits)\n");
    const unsigned wide = width < 8 ? 8 : width < 16 ? 16 : width < 32 ? 32 : 64;
    llvm::Type* scalar = llvm::Type::getIntNTy(type->getContext(), wide);
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
      return llvm::FixedVectorType::get(scalar, vector->getNumElements());
    return scalar;
  }

  // The widened, zero-extended form of a value of illegal type, used by `user`.
  llvm::Value* wide(llvm::Value* value, const llvm::Instruction& user) {
    if (auto it = widened_.find(value); it != widened_.end()) return it->second;
    llvm::Type* type = wide_type(value->getType(), user);
    if (llvm::isa<llvm::UndefValue>(value)) return llvm::UndefValue::get(type);  // poison too: any value will do
    if (auto* constant = llvm::dyn_cast<llvm::Constant>(value)) return llvm::ConstantExpr::getZExt(constant, type);
    throw CompileError(location_of(user, file_name_) +
                       ": error: internal compiler error: an integer of a width SPIR-V has no type for is used "
                       "before it is widened\n");
  }

  llvm::Constant* splat(llvm::Type* type, uint64_t value) { return llvm::ConstantInt::get(type, value); }
  // The low `width` bits of v.
  llvm::Value* mask(llvm::IRBuilder<>& b, llvm::Value* v, unsigned width) {
    const unsigned wide = integer_width(v->getType());
    return b.CreateAnd(v, llvm::ConstantInt::get(v->getType(), llvm::APInt::getLowBitsSet(wide, width)));
  }
  // v (a `width`-bit value held zero-extended) shifted so that its sign bit is the top bit.
  llvm::Value* sign_on_top(llvm::IRBuilder<>& b, llvm::Value* v, unsigned width) {
    const unsigned wide = integer_width(v->getType());
    return wide == width ? v : b.CreateShl(v, splat(v->getType(), wide - width));
  }
  // v (a `width`-bit value held zero-extended) sign-extended to its whole type.
  llvm::Value* sign_extended(llvm::IRBuilder<>& b, llvm::Value* v, unsigned width) {
    const unsigned wide = integer_width(v->getType());
    return wide == width ? v : b.CreateAShr(sign_on_top(b, v, width), splat(v->getType(), wide - width));
  }
  // v zero-extended or truncated to `type` (of the same shape).
  llvm::Value* resize(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Type* type) { return b.CreateZExtOrTrunc(v, type); }

  void widen_result(llvm::Instruction& instruction) {
    llvm::IRBuilder<> b(&instruction);
    llvm::Type* type = wide_type(instruction.getType(), instruction);
    const unsigned width = integer_width(instruction.getType());
    auto operand = [&](unsigned i) { return wide(instruction.getOperand(i), instruction); };
    llvm::Value* result = nullptr;
    switch (instruction.getOpcode()) {
      case llvm::Instruction::Trunc: {
        llvm::Value* source = instruction.getOperand(0);
        if (is_illegal(source->getType())) source = wide(source, instruction);
        result = mask(b, resize(b, source, type), width);
        break;
      }
      case llvm::Instruction::ZExt: {
        llvm::Value* source = instruction.getOperand(0);
        if (is_illegal(source->getType())) source = wide(source, instruction);
        result = resize(b, source, type);
        break;
      }
      case llvm::Instruction::SExt: {
        llvm::Value* source = instruction.getOperand(0);
        if (is_illegal(source->getType()))
          source = sign_extended(b, wide(source, instruction), integer_width(source->getType()));
        result = mask(b, b.CreateSExtOrTrunc(source, type), width);
        break;
      }
      case llvm::Instruction::Add: case llvm::Instruction::Sub: case llvm::Instruction::Mul:
      case llvm::Instruction::Shl:
        // Wraps at the wide width; the bits above `width` are cleared again.
        result = mask(b, b.CreateBinOp(llvm::Instruction::BinaryOps(instruction.getOpcode()), operand(0), operand(1)),
                      width);
        break;
      case llvm::Instruction::And: case llvm::Instruction::Or: case llvm::Instruction::Xor:
      case llvm::Instruction::LShr: case llvm::Instruction::UDiv: case llvm::Instruction::URem:
        // Zero-extended operands give a zero-extended result.
        result = b.CreateBinOp(llvm::Instruction::BinaryOps(instruction.getOpcode()), operand(0), operand(1));
        break;
      case llvm::Instruction::AShr:
        result = mask(b, b.CreateAShr(sign_extended(b, operand(0), width), operand(1)), width);
        break;
      case llvm::Instruction::SDiv: case llvm::Instruction::SRem:
        result = mask(b, b.CreateBinOp(llvm::Instruction::BinaryOps(instruction.getOpcode()),
                                       sign_extended(b, operand(0), width), sign_extended(b, operand(1), width)),
                      width);
        break;
      case llvm::Instruction::Select:
        result = b.CreateSelect(instruction.getOperand(0), operand(1), operand(2));
        break;
      case llvm::Instruction::Freeze:
        result = operand(0);  // SPIR-V has no poison (expand_intrinsics drops freezes too)
        break;
      case llvm::Instruction::FPToUI:
        result = mask(b, b.CreateFPToUI(instruction.getOperand(0), type), width);
        break;
      case llvm::Instruction::FPToSI:
        result = mask(b, b.CreateFPToSI(instruction.getOperand(0), type), width);
        break;
      case llvm::Instruction::ExtractElement:
        result = b.CreateExtractElement(operand(0), index(b, instruction.getOperand(1), instruction));
        break;
      case llvm::Instruction::InsertElement:
        result = b.CreateInsertElement(operand(0), operand(1), index(b, instruction.getOperand(2), instruction));
        break;
      case llvm::Instruction::ShuffleVector:
        result = b.CreateShuffleVector(operand(0), operand(1), llvm::cast<llvm::ShuffleVectorInst>(instruction).getShuffleMask());
        break;
      case llvm::Instruction::PHI: {
        auto& old_phi = llvm::cast<llvm::PHINode>(instruction);
        llvm::PHINode* phi = llvm::PHINode::Create(type, old_phi.getNumIncomingValues(), "", &old_phi);
        phis_.emplace_back(&old_phi, phi);
        result = phi;
        break;
      }
      case llvm::Instruction::Call:
        result = widen_intrinsic(b, llvm::cast<llvm::CallInst>(instruction), width);
        break;
      default:
        unsupported(instruction);
    }
    if (result != instruction.getOperand(0)) result->takeName(&instruction);  // a freeze's operand keeps its name
    widened_[&instruction] = result;
    dead_.push_back(&instruction);
  }

  // min and max: on the zero-extended values (unsigned) or the sign-extended ones.
  llvm::Value* widen_intrinsic(llvm::IRBuilder<>& b, llvm::CallInst& call, unsigned width) {
    const llvm::Intrinsic::ID id = call.getIntrinsicID();
    llvm::Value* x = wide(call.getArgOperand(0), call);
    llvm::Value* y = call.arg_size() > 1 ? wide(call.getArgOperand(1), call) : nullptr;
    switch (id) {
      case llvm::Intrinsic::umin: case llvm::Intrinsic::umax:
        return b.CreateBinaryIntrinsic(id, x, y);
      case llvm::Intrinsic::smin: case llvm::Intrinsic::smax:
        return mask(b, b.CreateBinaryIntrinsic(id, sign_extended(b, x, width), sign_extended(b, y, width)), width);
      default:
        unsupported(call);
    }
  }

  // A vector index of illegal type as a legal one (indices are unsigned).
  llvm::Value* index(llvm::IRBuilder<>&, llvm::Value* index, const llvm::Instruction& user) {
    return is_illegal(index->getType()) ? wide(index, user) : index;
  }

  // An instruction of legal type that uses illegal values: replaced, or its operands changed.
  void widen_operands(llvm::Instruction& instruction) {
    llvm::IRBuilder<> b(&instruction);
    auto operand = [&](unsigned i) { return wide(instruction.getOperand(i), instruction); };
    const unsigned width = instruction.getNumOperands() > 0 ? integer_width(instruction.getOperand(0)->getType()) : 0;
    llvm::Value* result = nullptr;
    switch (instruction.getOpcode()) {
      case llvm::Instruction::ICmp: {
        auto& compare = llvm::cast<llvm::ICmpInst>(instruction);
        llvm::Value* x = operand(0);
        llvm::Value* y = operand(1);
        if (compare.isSigned()) {  // the same shift of both keeps their signed order
          x = sign_on_top(b, x, width);
          y = sign_on_top(b, y, width);
        }
        result = b.CreateICmp(compare.getPredicate(), x, y);
        break;
      }
      case llvm::Instruction::Trunc: case llvm::Instruction::ZExt:
        result = resize(b, operand(0), instruction.getType());
        break;
      case llvm::Instruction::SExt:
        result = b.CreateSExtOrTrunc(sign_extended(b, operand(0), width), instruction.getType());
        break;
      case llvm::Instruction::UIToFP:
        result = b.CreateUIToFP(operand(0), instruction.getType());
        break;
      case llvm::Instruction::SIToFP:
        result = b.CreateSIToFP(sign_extended(b, operand(0), width), instruction.getType());
        break;
      case llvm::Instruction::ExtractElement:
        result = b.CreateExtractElement(instruction.getOperand(0), index(b, instruction.getOperand(1), instruction));
        break;
      case llvm::Instruction::InsertElement:
        result = b.CreateInsertElement(instruction.getOperand(0), instruction.getOperand(1),
                                       index(b, instruction.getOperand(2), instruction));
        break;
      case llvm::Instruction::Switch: {
        // Changed in place: the condition widened, and each case value with it.
        auto& switch_ = llvm::cast<llvm::SwitchInst>(instruction);
        llvm::Type* type = wide_type(switch_.getCondition()->getType(), instruction);
        switch_.setCondition(operand(0));
        for (auto& c : switch_.cases())
          c.setValue(llvm::cast<llvm::ConstantInt>(llvm::ConstantExpr::getZExt(c.getCaseValue(), type)));
        return;
      }
      default:
        unsupported(instruction);
    }
    result->takeName(&instruction);
    instruction.replaceAllUsesWith(result);
    dead_.push_back(&instruction);
  }

  llvm::Function& function_;
  std::string_view file_name_;
  std::unordered_map<llvm::Value*, llvm::Value*> widened_;
  std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> phis_;
  std::vector<llvm::Instruction*> dead_;
};

}  // namespace

void legalize_integer_widths(llvm::Module& module, std::string_view file_name) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    bool any = false;
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        any = any || is_illegal(instruction.getType()) || has_illegal_operand(instruction);
    if (any) Legalizer(function, file_name).run();
  }
}

}  // namespace vkcl
