#include "legalize_vectors.h"

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include "compile_error.h"
#include "spir_address_spaces.h"

namespace vkcl {
namespace {

// ---------------------------------------------------------------------------
// 3-component vectors in logical memory

bool is_logical_address_space(unsigned space) {
  return space == kPrivateAddressSpace || space == kLocalAddressSpace || space == kGenericAddressSpace;
}

// The <3 x T>* that `pointer` casts to <4 x T>*, or null.
llvm::Value* vec3_behind_vec4_cast(llvm::Value* pointer) {
  auto* cast = llvm::dyn_cast<llvm::BitCastOperator>(pointer);
  if (cast == nullptr) return nullptr;
  auto* to = llvm::dyn_cast<llvm::PointerType>(cast->getType());
  auto* from = llvm::dyn_cast<llvm::PointerType>(cast->getOperand(0)->getType());
  if (to == nullptr || from == nullptr || to->isOpaque() || from->isOpaque()) return nullptr;
  if (!is_logical_address_space(from->getAddressSpace())) return nullptr;
  auto* wide = llvm::dyn_cast<llvm::FixedVectorType>(to->getNonOpaquePointerElementType());
  auto* narrow = llvm::dyn_cast<llvm::FixedVectorType>(from->getNonOpaquePointerElementType());
  if (wide == nullptr || narrow == nullptr || wide->getNumElements() != 4 || narrow->getNumElements() != 3 ||
      wide->getElementType() != narrow->getElementType())
    return nullptr;
  return cast->getOperand(0);
}

void narrow_vec3_accesses(llvm::Function& function) {
  std::vector<llvm::Instruction*> dead;
  for (llvm::BasicBlock& block : function) {
    for (llvm::Instruction& instruction : block) {
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
        llvm::Value* narrow = vec3_behind_vec4_cast(load->getPointerOperand());
        if (narrow == nullptr) continue;
        llvm::IRBuilder<> b(load);
        auto* type = llvm::cast<llvm::FixedVectorType>(narrow->getType()->getNonOpaquePointerElementType());
        llvm::LoadInst* v3 = b.CreateAlignedLoad(type, narrow, load->getAlign(), load->isVolatile());
        llvm::Value* v4 = b.CreateShuffleVector(v3, llvm::PoisonValue::get(type), llvm::ArrayRef<int>{0, 1, 2, -1});
        load->replaceAllUsesWith(v4);
        dead.push_back(load);
      } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
        llvm::Value* narrow = vec3_behind_vec4_cast(store->getPointerOperand());
        if (narrow == nullptr) continue;
        llvm::IRBuilder<> b(store);
        llvm::Value* v4 = store->getValueOperand();
        llvm::Value* v3 = b.CreateShuffleVector(v4, llvm::PoisonValue::get(v4->getType()), llvm::ArrayRef<int>{0, 1, 2});
        b.CreateAlignedStore(v3, narrow, store->getAlign(), store->isVolatile());
        dead.push_back(store);
      }
    }
  }
  for (llvm::Instruction* instruction : dead) {
    llvm::Value* pointer = llvm::getLoadStorePointerOperand(instruction);
    instruction->eraseFromParent();
    if (auto* cast = llvm::dyn_cast<llvm::BitCastInst>(pointer); cast && cast->use_empty()) cast->eraseFromParent();
  }
}

// ---------------------------------------------------------------------------
// Vectors of 8 and 16 components

bool is_long_vector(const llvm::Type* type) {
  const auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector != nullptr && vector->getNumElements() > 4;
}

std::string where(const llvm::Instruction& instruction, std::string_view file_name) {
  const llvm::DILocation* loc = instruction.getDebugLoc().get();
  if (loc == nullptr || loc->getLine() == 0) return std::string(file_name);
  std::string file = loc->getFilename().empty() ? std::string(file_name) : loc->getFilename().str();
  std::string text = file + ":" + std::to_string(loc->getLine());
  if (loc->getColumn() != 0) text += ":" + std::to_string(loc->getColumn());
  return text;
}

// The source name of a mangled function ("fabs" for _Z4fabsDv16_f), and the
// rest of the mangling after it; false when `name` is not mangled.
bool split_mangled(llvm::StringRef name, std::string& base, std::string& rest) {
  if (!name.startswith("_Z")) return false;
  size_t i = 2, length = 0;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') length = length * 10 + size_t(name[i++] - '0');
  if (length == 0 || i + length > name.size()) return false;
  base = name.substr(i, length).str();
  rest = name.substr(i + length).str();
  return true;
}

// The 4-component overload of an element-wise builtin: vector parameters
// Dv8_/Dv16_ become Dv4_, and a width in the name (convert_int16_sat) too.
// Substitutions (S_, S0_) keep pointing at the same parameters.
std::string four_component_overload(llvm::StringRef name) {
  std::string base, rest;
  if (!split_mangled(name, base, rest)) return {};
  static const std::regex width_in_name("(uchar|char|ushort|short|uint|int|ulong|long|float|double|half)(16|8)(?![0-9])");
  static const std::regex vector_parameter("Dv(16|8)_");
  base = std::regex_replace(base, width_in_name, "$014");
  rest = std::regex_replace(rest, vector_parameter, "Dv4_");
  return "_Z" + std::to_string(base.size()) + base + rest;
}

class LongVectorSplitter {
 public:
  LongVectorSplitter(llvm::Function& function, std::string_view file_name)
      : function_(function), file_name_(file_name) {}

  void run() {
    llvm::ReversePostOrderTraversal<llvm::Function*> order(&function_);
    for (llvm::BasicBlock* block : order)
      for (llvm::Instruction& instruction : llvm::make_early_inc_range(*block)) visit(instruction);
    for (auto& [phi, scalar_phis] : phis_) {
      for (unsigned edge = 0; edge < phi->getNumIncomingValues(); ++edge) {
        llvm::BasicBlock* from = phi->getIncomingBlock(edge);
        llvm::IRBuilder<> b(from->getTerminator());
        const Parts& incoming = parts(phi->getIncomingValue(edge), b);
        for (size_t i = 0; i < scalar_phis.size(); ++i) scalar_phis[i]->addIncoming(incoming[i], from);
      }
    }
    for (llvm::Instruction* instruction : dead_)
      if (!instruction->use_empty()) instruction->replaceAllUsesWith(llvm::PoisonValue::get(instruction->getType()));
    for (auto it = dead_.rbegin(); it != dead_.rend(); ++it) (*it)->eraseFromParent();
  }

 private:
  using Parts = llvm::SmallVector<llvm::Value*, 16>;

  [[noreturn]] void fail(const llvm::Instruction& instruction, const std::string& what) const {
    throw CompileError(where(instruction, file_name_) + ": error: " + what +
                       " on vectors of 8 or 16 components is not supported (Vulkan has no such vectors, and vkcl "
                       "could not split this one)\n");
  }

  // The scalar components of a long vector.
  const Parts& parts(llvm::Value* value, llvm::IRBuilder<>& b) {
    if (auto it = parts_.find(value); it != parts_.end()) return it->second;
    Parts result = components(value, b);
    return parts_.try_emplace(value, std::move(result)).first->second;
  }

  // The scalar components of any value: a vector's elements, or the scalar itself.
  Parts components(llvm::Value* value, llvm::IRBuilder<>& b) {
    if (auto it = parts_.find(value); it != parts_.end()) return it->second;
    auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(value->getType());
    if (vector == nullptr) return {value};
    Parts result;
    if (auto* constant = llvm::dyn_cast<llvm::Constant>(value)) {
      for (unsigned i = 0; i < vector->getNumElements(); ++i) result.push_back(constant->getAggregateElement(i));
      return result;
    }
    llvm::IRBuilder<> at(b.GetInsertBlock(), b.GetInsertPoint());
    if (auto* argument = llvm::dyn_cast<llvm::Argument>(value)) {
      // After the entry block's allocas, which must stay first (they become OpVariable).
      llvm::BasicBlock::iterator first = argument->getParent()->getEntryBlock().getFirstInsertionPt();
      while (llvm::isa<llvm::AllocaInst>(*first)) ++first;
      at.SetInsertPoint(&*first);
    }
    for (unsigned i = 0; i < vector->getNumElements(); ++i) result.push_back(at.CreateExtractElement(value, uint64_t(i)));
    return result;
  }

  // A value of `type` (a scalar or a vector of up to 4 components) from components.
  static llvm::Value* assemble(llvm::Type* type, llvm::ArrayRef<llvm::Value*> scalars, llvm::IRBuilder<>& b) {
    if (!type->isVectorTy()) return scalars.front();
    llvm::Value* vector = llvm::PoisonValue::get(type);
    for (size_t i = 0; i < scalars.size(); ++i) vector = b.CreateInsertElement(vector, scalars[i], uint64_t(i));
    return vector;
  }

  // Records `scalars` as the result of `instruction`: its parts when it is a
  // long vector, else a replacement value.
  void define(llvm::Instruction& instruction, Parts scalars, llvm::IRBuilder<>& b) {
    if (is_long_vector(instruction.getType())) {
      parts_[&instruction] = std::move(scalars);
    } else {
      instruction.replaceAllUsesWith(assemble(instruction.getType(), scalars, b));
    }
    dead_.push_back(&instruction);
  }

  static bool involves_long_vectors(const llvm::Instruction& instruction) {
    if (is_long_vector(instruction.getType())) return true;
    for (const llvm::Use& operand : instruction.operands())
      if (is_long_vector(operand->getType())) return true;
    return false;
  }

  void visit(llvm::Instruction& instruction) {
    if (!involves_long_vectors(instruction)) return;
    llvm::IRBuilder<> b(&instruction);
    const unsigned count = is_long_vector(instruction.getType())
                               ? llvm::cast<llvm::FixedVectorType>(instruction.getType())->getNumElements()
                               : 0;
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
      Parts scalars;
      std::vector<llvm::PHINode*> scalar_phis;
      llvm::Type* element = llvm::cast<llvm::FixedVectorType>(phi->getType())->getElementType();
      for (unsigned i = 0; i < count; ++i) {
        scalar_phis.push_back(b.CreatePHI(element, phi->getNumIncomingValues()));
        scalars.push_back(scalar_phis.back());
      }
      phis_.emplace_back(phi, std::move(scalar_phis));
      parts_[phi] = std::move(scalars);
      dead_.push_back(phi);
      return;
    }
    if (auto* binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
      const Parts& a = parts(binary->getOperand(0), b);
      const Parts& c = parts(binary->getOperand(1), b);
      Parts scalars;
      for (unsigned i = 0; i < count; ++i) {
        llvm::Value* r = b.CreateBinOp(binary->getOpcode(), a[i], c[i]);
        if (auto* ri = llvm::dyn_cast<llvm::Instruction>(r)) ri->copyIRFlags(binary);
        scalars.push_back(r);
      }
      return define(instruction, std::move(scalars), b);
    }
    if (auto* unary = llvm::dyn_cast<llvm::UnaryOperator>(&instruction)) {
      const Parts& a = parts(unary->getOperand(0), b);
      Parts scalars;
      for (unsigned i = 0; i < count; ++i) {
        llvm::Value* r = b.CreateUnOp(unary->getOpcode(), a[i]);
        if (auto* ri = llvm::dyn_cast<llvm::Instruction>(r)) ri->copyIRFlags(unary);
        scalars.push_back(r);
      }
      return define(instruction, std::move(scalars), b);
    }
    if (auto* compare = llvm::dyn_cast<llvm::CmpInst>(&instruction)) {
      const Parts& a = parts(compare->getOperand(0), b);
      const Parts& c = parts(compare->getOperand(1), b);
      Parts scalars;
      for (unsigned i = 0; i < count; ++i) {
        llvm::Value* r = b.CreateCmp(compare->getPredicate(), a[i], c[i]);
        if (auto* ri = llvm::dyn_cast<llvm::Instruction>(r); ri && llvm::isa<llvm::FPMathOperator>(ri))
          ri->copyFastMathFlags(compare);
        scalars.push_back(r);
      }
      return define(instruction, std::move(scalars), b);
    }
    if (auto* select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
      Parts conditions = is_long_vector(select->getCondition()->getType()) ? parts(select->getCondition(), b)
                                                                           : Parts(count, select->getCondition());
      const Parts& t = parts(select->getTrueValue(), b);
      const Parts& f = parts(select->getFalseValue(), b);
      Parts scalars;
      for (unsigned i = 0; i < count; ++i) scalars.push_back(b.CreateSelect(conditions[i], t[i], f[i]));
      return define(instruction, std::move(scalars), b);
    }
    if (auto* freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction)) {
      const Parts& a = parts(freeze->getOperand(0), b);
      Parts scalars;
      for (unsigned i = 0; i < count; ++i) scalars.push_back(b.CreateFreeze(a[i]));
      return define(instruction, std::move(scalars), b);
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
      if (cast->getOpcode() == llvm::Instruction::BitCast) return define(instruction, bitcast(*cast, b), b);
      if (!cast->getType()->isVectorTy() || !cast->getOperand(0)->getType()->isVectorTy())
        fail(instruction, "this conversion");
      const Parts& a = parts(cast->getOperand(0), b);
      llvm::Type* element = llvm::cast<llvm::FixedVectorType>(cast->getType())->getElementType();
      Parts scalars;
      for (unsigned i = 0; i < count; ++i) scalars.push_back(b.CreateCast(cast->getOpcode(), a[i], element));
      return define(instruction, std::move(scalars), b);
    }
    if (auto* extract = llvm::dyn_cast<llvm::ExtractElementInst>(&instruction)) {
      const Parts& a = parts(extract->getVectorOperand(), b);
      return define(instruction, {select_component(a, extract->getIndexOperand(), b)}, b);
    }
    if (auto* insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction)) {
      Parts scalars = parts(insert->getOperand(0), b);
      llvm::Value* value = insert->getOperand(1);
      llvm::Value* index = insert->getOperand(2);
      if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(index)) {
        if (constant->getZExtValue() < scalars.size()) scalars[constant->getZExtValue()] = value;
      } else {
        for (unsigned i = 0; i < count; ++i)
          scalars[i] = b.CreateSelect(b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)), value,
                                      scalars[i]);
      }
      return define(instruction, std::move(scalars), b);
    }
    if (auto* shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction)) {
      Parts sources = components(shuffle->getOperand(0), b);
      Parts second = components(shuffle->getOperand(1), b);
      sources.append(second.begin(), second.end());
      llvm::Type* element = llvm::cast<llvm::VectorType>(shuffle->getType())->getElementType();
      Parts scalars;
      for (int index : shuffle->getShuffleMask())
        scalars.push_back(index < 0 ? llvm::PoisonValue::get(element) : sources[size_t(index)]);
      return define(instruction, std::move(scalars), b);
    }
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      auto* type = llvm::cast<llvm::FixedVectorType>(load->getType());
      const uint64_t element_size = type->getElementType()->getPrimitiveSizeInBits() / 8;
      Parts scalars;
      for (unsigned i = 0; i < count; ++i) {
        llvm::Value* pointer = b.CreateConstInBoundsGEP2_32(type, load->getPointerOperand(), 0, i);
        scalars.push_back(b.CreateAlignedLoad(type->getElementType(), pointer,
                                              llvm::commonAlignment(load->getAlign(), i * element_size),
                                              load->isVolatile()));
      }
      return define(instruction, std::move(scalars), b);
    }
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      if (!is_long_vector(store->getValueOperand()->getType())) fail(instruction, "a store of pointers");
      auto* type = llvm::cast<llvm::FixedVectorType>(store->getValueOperand()->getType());
      const uint64_t element_size = type->getElementType()->getPrimitiveSizeInBits() / 8;
      const Parts& values = parts(store->getValueOperand(), b);
      for (unsigned i = 0; i < type->getNumElements(); ++i) {
        llvm::Value* pointer = b.CreateConstInBoundsGEP2_32(type, store->getPointerOperand(), 0, i);
        b.CreateAlignedStore(values[i], pointer, llvm::commonAlignment(store->getAlign(), i * element_size),
                             store->isVolatile());
      }
      dead_.push_back(&instruction);
      return;
    }
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction)) {
      llvm::Function* callee = call->getCalledFunction();
      if (callee == nullptr) fail(instruction, "an indirect call");
      if (callee->isIntrinsic()) return split_intrinsic(*call, b);
      return split_builtin(*call, b);
    }
    fail(instruction, std::string("the LLVM instruction '") + instruction.getOpcodeName() + "'");
  }

  // a[index], with a run-time index as a chain of selects.
  static llvm::Value* select_component(const Parts& a, llvm::Value* index, llvm::IRBuilder<>& b) {
    if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(index)) {
      const uint64_t i = constant->getZExtValue();
      return i < a.size() ? a[i] : llvm::PoisonValue::get(a.front()->getType());
    }
    llvm::Value* value = a[0];
    for (unsigned i = 1; i < a.size(); ++i)
      value = b.CreateSelect(b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)), a[i], value);
    return value;
  }

  // The components of a bitcast's result, from its operand's, bit by bit
  // (components are little-endian, as on spir64).
  Parts bitcast(llvm::CastInst& cast, llvm::IRBuilder<>& b) {
    llvm::Type* to = cast.getType();
    llvm::Value* operand = cast.getOperand(0);
    if (to->isPtrOrPtrVectorTy() || operand->getType()->isPtrOrPtrVectorTy()) fail(cast, "a pointer cast");
    Parts source = components(operand, b);
    llvm::Type* from_element = operand->getType()->getScalarType();
    llvm::Type* to_element = to->getScalarType();
    const unsigned from_bits = from_element->getPrimitiveSizeInBits();
    const unsigned to_bits = to_element->getPrimitiveSizeInBits();
    const unsigned to_count = to->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(to)->getNumElements() : 1;
    auto as_int = [&](llvm::Value* v) {
      return v->getType()->isIntegerTy() ? v : b.CreateBitCast(v, b.getIntNTy(v->getType()->getPrimitiveSizeInBits()));
    };
    auto as_element = [&](llvm::Value* v) { return v->getType() == to_element ? v : b.CreateBitCast(v, to_element); };
    Parts result;
    if (from_bits == to_bits) {
      for (llvm::Value* v : source) result.push_back(as_element(v));
    } else if (from_bits > to_bits) {
      const unsigned pieces = from_bits / to_bits;
      for (llvm::Value* v : source) {
        llvm::Value* bits = as_int(v);
        for (unsigned j = 0; j < pieces; ++j) {
          llvm::Value* shifted = j == 0 ? bits : b.CreateLShr(bits, uint64_t(j) * to_bits);
          result.push_back(as_element(b.CreateTrunc(shifted, b.getIntNTy(to_bits))));
        }
      }
    } else {
      const unsigned pieces = to_bits / from_bits;
      for (unsigned i = 0; i < to_count; ++i) {
        llvm::Value* bits = nullptr;
        for (unsigned j = 0; j < pieces; ++j) {
          llvm::Value* piece = b.CreateZExt(as_int(source[i * pieces + j]), b.getIntNTy(to_bits));
          if (j != 0) piece = b.CreateShl(piece, uint64_t(j) * from_bits);
          bits = bits == nullptr ? piece : b.CreateOr(bits, piece);
        }
        result.push_back(as_element(bits));
      }
    }
    return result;
  }

  void split_intrinsic(llvm::CallInst& call, llvm::IRBuilder<>& b) {
    const llvm::Intrinsic::ID id = call.getCalledFunction()->getIntrinsicID();
    if (auto reduction = reduction_opcode(id)) {
      const Parts& a = parts(call.getArgOperand(0), b);
      llvm::Value* value = a[0];
      for (size_t i = 1; i < a.size(); ++i) value = reduce(*reduction, value, a[i], b);
      return define(call, {value}, b);
    }
    if (!is_long_vector(call.getType()) || !llvm::isTriviallyVectorizable(id))
      fail(call, "the intrinsic '" + call.getCalledFunction()->getName().str() + "'");
    auto* type = llvm::cast<llvm::FixedVectorType>(call.getType());
    llvm::SmallVector<llvm::Type*, 3> overloads{type->getElementType()};
    std::vector<Parts> operands(call.arg_size());
    for (unsigned a = 0; a < call.arg_size(); ++a) {
      llvm::Value* operand = call.getArgOperand(a);
      if (operand->getType()->isVectorTy()) {
        operands[a] = parts(operand, b);
        if (operands[a].size() != type->getNumElements()) fail(call, "this intrinsic");
        if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, a)) overloads.push_back(operand->getType()->getScalarType());
      } else {
        operands[a] = Parts(type->getNumElements(), operand);
        if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, a)) overloads.push_back(operand->getType());
      }
    }
    llvm::Function* scalar = llvm::Intrinsic::getDeclaration(call.getModule(), id, overloads);
    Parts scalars;
    for (unsigned i = 0; i < type->getNumElements(); ++i) {
      llvm::SmallVector<llvm::Value*, 4> arguments;
      for (const Parts& operand : operands) arguments.push_back(operand[i]);
      llvm::CallInst* piece = b.CreateCall(scalar, arguments);
      if (llvm::isa<llvm::FPMathOperator>(piece)) piece->copyFastMathFlags(&call);
      scalars.push_back(piece);
    }
    define(call, std::move(scalars), b);
  }

  static std::optional<unsigned> reduction_opcode(llvm::Intrinsic::ID id) {
    switch (id) {
      case llvm::Intrinsic::vector_reduce_add: return llvm::Instruction::Add;
      case llvm::Intrinsic::vector_reduce_mul: return llvm::Instruction::Mul;
      case llvm::Intrinsic::vector_reduce_and: return llvm::Instruction::And;
      case llvm::Intrinsic::vector_reduce_or: return llvm::Instruction::Or;
      case llvm::Intrinsic::vector_reduce_xor: return llvm::Instruction::Xor;
      case llvm::Intrinsic::vector_reduce_smax: return 1000 + unsigned(llvm::CmpInst::ICMP_SGT);
      case llvm::Intrinsic::vector_reduce_smin: return 1000 + unsigned(llvm::CmpInst::ICMP_SLT);
      case llvm::Intrinsic::vector_reduce_umax: return 1000 + unsigned(llvm::CmpInst::ICMP_UGT);
      case llvm::Intrinsic::vector_reduce_umin: return 1000 + unsigned(llvm::CmpInst::ICMP_ULT);
      default: return std::nullopt;
    }
  }

  static llvm::Value* reduce(unsigned operation, llvm::Value* a, llvm::Value* c, llvm::IRBuilder<>& b) {
    if (operation >= 1000) {
      auto predicate = llvm::CmpInst::Predicate(operation - 1000);
      return b.CreateSelect(b.CreateICmp(predicate, a, c), a, c);
    }
    return b.CreateBinOp(llvm::Instruction::BinaryOps(operation), a, c);
  }

  // A call of a builtin without a body (the translator lowers it): element-wise
  // when every vector operand and the result have the same number of
  // components, split into calls of the 4-component overload.
  void split_builtin(llvm::CallInst& call, llvm::IRBuilder<>& b) {
    llvm::Function* callee = call.getCalledFunction();
    const std::string name = callee->getName().str();
    std::string base, rest;
    const std::string what = split_mangled(name, base, rest) ? "the builtin '" + base + "'" : "'" + name + "'";
    if (!callee->isDeclaration()) fail(call, "a call of a function that was not inlined");
    // any() and all() reduce their vector: the quarters' results or'ed or and'ed.
    const bool reduction = (base == "any" || base == "all") && call.arg_size() == 1 && call.getType()->isIntegerTy();
    unsigned count = 0;
    auto width_of = [&](llvm::Type* type) -> unsigned {
      auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
      if (type->isPointerTy()) fail(call, what + " with pointer arguments");
      if (vector == nullptr) return 0;
      if (count != 0 && vector->getNumElements() != count) fail(call, what);
      count = vector->getNumElements();
      return count;
    };
    if (!call.getType()->isVectorTy() && !call.getType()->isVoidTy() && !reduction) fail(call, what);
    width_of(call.getType());
    for (llvm::Value* operand : call.args()) width_of(operand->getType());
    const std::string overload = four_component_overload(name);
    if (overload.empty() || overload == name || count % 4 != 0) fail(call, what);

    auto quarter = [](llvm::Type* type) -> llvm::Type* {
      auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
      return vector ? llvm::FixedVectorType::get(vector->getElementType(), 4) : type;
    };
    llvm::SmallVector<llvm::Type*, 4> parameter_types;
    for (llvm::Value* operand : call.args()) parameter_types.push_back(quarter(operand->getType()));
    llvm::FunctionType* type = llvm::FunctionType::get(quarter(call.getType()), parameter_types, false);
    llvm::FunctionCallee piece_function = call.getModule()->getOrInsertFunction(overload, type);
    if (auto* declared = llvm::dyn_cast<llvm::Function>(piece_function.getCallee())) {
      declared->setCallingConv(callee->getCallingConv());
      declared->setAttributes(callee->getAttributes());
    }

    std::vector<Parts> operands;
    for (llvm::Value* operand : call.args())
      operands.push_back(operand->getType()->isVectorTy() ? parts(operand, b) : Parts(count, operand));
    Parts scalars;
    for (unsigned first = 0; first < count; first += 4) {
      llvm::SmallVector<llvm::Value*, 4> arguments;
      for (size_t a = 0; a < operands.size(); ++a) {
        llvm::Value* operand = call.getArgOperand(unsigned(a));
        arguments.push_back(operand->getType()->isVectorTy()
                                ? assemble(parameter_types[a], llvm::ArrayRef<llvm::Value*>(operands[a]).slice(first, 4), b)
                                : operand);
      }
      llvm::CallInst* piece = b.CreateCall(piece_function, arguments);
      piece->setCallingConv(call.getCallingConv());
      piece->setAttributes(call.getAttributes());
      if (reduction) {
        scalars.push_back(scalars.empty() ? piece
                                          : base == "any" ? b.CreateOr(scalars.pop_back_val(), piece)
                                                          : b.CreateAnd(scalars.pop_back_val(), piece));
      } else if (!call.getType()->isVoidTy()) {
        Parts results = components(piece, b);
        scalars.append(results.begin(), results.end());
      }
    }
    if (call.getType()->isVoidTy()) {
      dead_.push_back(&call);
      return;
    }
    define(call, std::move(scalars), b);
  }

  llvm::Function& function_;
  std::string_view file_name_;
  llvm::DenseMap<llvm::Value*, Parts> parts_;
  std::vector<std::pair<llvm::PHINode*, std::vector<llvm::PHINode*>>> phis_;
  std::vector<llvm::Instruction*> dead_;
};

}  // namespace

void legalize_vectors(llvm::Module& module, std::string_view file_name) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    narrow_vec3_accesses(function);
    LongVectorSplitter(function, file_name).run();
  }
}

}  // namespace vkcl
