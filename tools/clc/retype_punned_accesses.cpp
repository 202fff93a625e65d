#include "retype_punned_accesses.h"

#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/ValueHandle.h>

namespace vkcl {
namespace {

// SPIR address spaces as clang numbers them: the ones Vulkan addresses logically.
constexpr unsigned kPrivateAddressSpace = 0;
constexpr unsigned kLocalAddressSpace = 3;

llvm::Type* pointee(const llvm::Value* pointer) {
  auto* type = llvm::cast<llvm::PointerType>(pointer->getType());
  return type->isOpaque() ? nullptr : type->getNonOpaquePointerElementType();
}

// A pointer cast between pointers to logically addressed memory whose
// element types differ; true for an instruction or a constant expression.
bool is_logical_pointer_cast(const llvm::Value* value) {
  const auto* cast = llvm::dyn_cast<llvm::BitCastOperator>(value);
  if (cast == nullptr || !cast->getType()->isPointerTy()) return false;
  const unsigned space = cast->getType()->getPointerAddressSpace();
  if (space != kPrivateAddressSpace && space != kLocalAddressSpace) return false;
  return pointee(cast) != nullptr && pointee(cast->getOperand(0)) != nullptr &&
         pointee(cast) != pointee(cast->getOperand(0));
}

// Scalars or vectors of numbers of one size and one allocation size: a
// value of one is a bitcast of a value of the other, and getelementptr
// steps over both alike.
bool interchangeable(llvm::Type* from, llvm::Type* to, const llvm::DataLayout& layout) {
  auto plain = [](llvm::Type* type) { return type->isIntOrIntVectorTy() || type->isFPOrFPVectorTy(); };
  return plain(from) && plain(to) && layout.getTypeSizeInBits(from) == layout.getTypeSizeInBits(to) &&
         layout.getTypeAllocSize(from) == layout.getTypeAllocSize(to) && llvm::CastInst::isBitCastable(from, to);
}

// Whether a constant expression used as an address is, or is built on, such
// a cast (getelementptr and bitcast expressions, as instcombine folds them
// for kernel-scope __local arrays).
bool contains_logical_cast(const llvm::ConstantExpr* expression) {
  for (const llvm::Value* value = expression; value != nullptr;) {
    if (is_logical_pointer_cast(value)) return true;
    const auto* inner = llvm::dyn_cast<llvm::ConstantExpr>(value);
    if (inner == nullptr || (inner->getOpcode() != llvm::Instruction::GetElementPtr &&
                             inner->getOpcode() != llvm::Instruction::BitCast))
      return false;
    value = inner->getOperand(0);
  }
  return false;
}

// Turns the constant-expression addresses of loads, stores, getelementptrs
// and casts that hold such a cast into instructions before their user, so
// that retype() sees every cast as an instruction.
void materialize_constant_casts(llvm::Function& function) {
  std::vector<llvm::Instruction*> users;
  for (llvm::Instruction& instruction : llvm::instructions(function))
    if (llvm::isa<llvm::LoadInst, llvm::StoreInst, llvm::GetElementPtrInst, llvm::BitCastInst>(instruction))
      users.push_back(&instruction);
  while (!users.empty()) {
    llvm::Instruction* user = users.back();
    users.pop_back();
    const unsigned operand = llvm::isa<llvm::StoreInst>(user) ? 1 : 0;  // the address
    auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(user->getOperand(operand));
    if (expression == nullptr || !contains_logical_cast(expression)) continue;
    llvm::Instruction* materialized = expression->getAsInstruction(user);
    user->setOperand(operand, materialized);
    users.push_back(materialized);  // its own address may be such an expression
  }
}

class Retyper {
 public:
  explicit Retyper(llvm::Module& module)
      : layout_(module.getDataLayout()),
        zero_(llvm::ConstantInt::get(llvm::Type::getInt64Ty(module.getContext()), 0)) {}

  void add(llvm::BitCastInst* cast) { worklist_.emplace_back(cast); }

  void run() {
    while (!worklist_.empty()) {
      // A handle: retyping one cast may erase another that waits here.
      auto* cast = llvm::dyn_cast_or_null<llvm::BitCastInst>(worklist_.back());
      worklist_.pop_back();
      if (cast != nullptr) retype(cast);
    }
  }

 private:
  // Moves the accesses through `cast` to its source pointer; leaves it
  // alone when some use of it cannot be moved.
  void retype(llvm::BitCastInst* cast) {
    if (!is_logical_pointer_cast(cast)) return;
    llvm::Value* source = cast->getOperand(0);
    llvm::Type* from = pointee(source);
    llvm::Type* to = pointee(cast);
    // `(__local ushort*)array` of a half array: the cast is of the address of
    // its first element.
    std::vector<llvm::Value*> first_element;
    while (auto* array = llvm::dyn_cast<llvm::ArrayType>(from)) {
      if (first_element.empty()) first_element.push_back(zero_);
      first_element.push_back(zero_);
      from = array->getElementType();
    }
    if (!interchangeable(from, to, layout_)) return;
    for (llvm::User* user : cast->users()) {
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user); load != nullptr && !load->isAtomic()) continue;
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user);
          store != nullptr && !store->isAtomic() && store->getValueOperand() != cast)
        continue;
      if (auto* step = llvm::dyn_cast<llvm::GetElementPtrInst>(user); step != nullptr && step->getNumIndices() == 1)
        continue;
      if (llvm::isa<llvm::BitCastInst>(user)) continue;
      return;
    }
    if (!first_element.empty()) {
      source = llvm::GetElementPtrInst::CreateInBounds(pointee(source), source, first_element, "", cast);
    }

    for (llvm::User* user : llvm::make_early_inc_range(cast->users())) {
      auto* instruction = llvm::cast<llvm::Instruction>(user);
      // No TBAA tags on the new accesses: they named the old type.
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(instruction)) {
        auto* access = new llvm::LoadInst(from, source, "", load->isVolatile(), load->getAlign(), load);
        access->setDebugLoc(load->getDebugLoc());
        auto* value = new llvm::BitCastInst(access, to, "", load);
        value->setDebugLoc(load->getDebugLoc());
        load->replaceAllUsesWith(value);
        load->eraseFromParent();
      } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(instruction)) {
        auto* value = new llvm::BitCastInst(store->getValueOperand(), from, "", store);
        value->setDebugLoc(store->getDebugLoc());
        auto* access = new llvm::StoreInst(value, source, store->isVolatile(), store->getAlign(), store);
        access->setDebugLoc(store->getDebugLoc());
        store->eraseFromParent();
      } else if (auto* step = llvm::dyn_cast<llvm::GetElementPtrInst>(instruction)) {
        // p + i steps by the same size in either type: step first, cast after.
        llvm::Value* index = step->getOperand(1);
        auto* moved = step->isInBounds() ? llvm::GetElementPtrInst::CreateInBounds(from, source, {index}, "", step)
                                         : llvm::GetElementPtrInst::Create(from, source, {index}, "", step);
        moved->setDebugLoc(step->getDebugLoc());
        auto* recast = new llvm::BitCastInst(moved, step->getType(), "", step);
        recast->setDebugLoc(step->getDebugLoc());
        step->replaceAllUsesWith(recast);
        step->eraseFromParent();
        worklist_.emplace_back(recast);
      } else {
        auto* next = llvm::cast<llvm::BitCastInst>(instruction);
        if (next->getType() == source->getType()) {
          next->replaceAllUsesWith(source);
        } else {
          auto* direct = new llvm::BitCastInst(source, next->getType(), "", next);
          direct->setDebugLoc(next->getDebugLoc());
          next->replaceAllUsesWith(direct);
          worklist_.emplace_back(direct);
        }
        next->eraseFromParent();
      }
    }
    cast->eraseFromParent();
  }

  const llvm::DataLayout& layout_;
  llvm::Constant* zero_;
  std::vector<llvm::WeakVH> worklist_;
};

}  // namespace

void retype_punned_accesses(llvm::Module& module) {
  Retyper retyper(module);
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    materialize_constant_casts(function);
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction); cast && is_logical_pointer_cast(cast))
        retyper.add(cast);
  }
  retyper.run();
}

}  // namespace vkcl
