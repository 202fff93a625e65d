#include "flatten_stepped_arrays.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

namespace vkcl {
namespace {

llvm::Type* innermost_element(llvm::Type* type) {
  while (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) type = array->getElementType();
  return type;
}

bool is_array_of_arrays(llvm::Type* type) {
  auto* array = llvm::dyn_cast<llvm::ArrayType>(type);
  return array != nullptr && array->getElementType()->isArrayTy();
}

// How many `element`s `type` holds, if it is `element` or arrays of it.
std::optional<uint64_t> element_count(llvm::Type* type, llvm::Type* element) {
  uint64_t count = 1;
  for (; type != element; type = type->getArrayElementType()) {
    if (!type->isArrayTy()) return std::nullopt;
    count *= type->getArrayNumElements();
  }
  return count;
}

llvm::Type* pointee(const llvm::Value* pointer) {
  auto* type = llvm::cast<llvm::PointerType>(pointer->getType());
  return type->isOpaque() ? nullptr : type->getNonOpaquePointerElementType();
}

bool is_zero(const llvm::Value* value) {
  const auto* constant = llvm::dyn_cast<llvm::Constant>(value);
  return constant != nullptr && constant->isNullValue();
}

// Where an instruction's use of a value can have a new value computed:
// before it, or for a phi, at the end of the incoming block.
llvm::Instruction* insertion_point(const llvm::Use& use) {
  auto* user = llvm::cast<llvm::Instruction>(use.getUser());
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) return phi->getIncomingBlock(use)->getTerminator();
  return user;
}

// The pointers derived from `root` (itself included) through address
// arithmetic, casts, phis and selects, in the order found; nullopt if some
// constant expression built on it is used by something that is not an
// instruction (another global's initializer), which cannot be rewritten.
struct DerivedPointers {
  std::vector<llvm::Value*> values;
  bool stepped = false;
};

std::optional<DerivedPointers> derived_pointers(llvm::Value* root) {
  DerivedPointers derived;
  std::set<llvm::Value*> seen{root};
  derived.values.push_back(root);
  for (size_t i = 0; i < derived.values.size(); ++i) {
    llvm::Value* pointer = derived.values[i];
    for (llvm::Use& use : pointer->uses()) {
      llvm::User* user = use.getUser();
      if (!llvm::isa<llvm::Instruction>(user) && !llvm::isa<llvm::ConstantExpr>(user)) return std::nullopt;
      bool follows = false;
      if (auto* gep = llvm::dyn_cast<llvm::GEPOperator>(user)) {
        if (!gep->getType()->isPointerTy()) return std::nullopt;  // a vector of addresses
        follows = use.getOperandNo() == 0;
        if (follows && pointer != root && !is_zero(gep->getOperand(1))) derived.stepped = true;
      } else if (llvm::isa<llvm::BitCastOperator, llvm::AddrSpaceCastOperator, llvm::PHINode>(user)) {
        follows = true;
      } else if (llvm::isa<llvm::SelectInst>(user)) {
        follows = use.getOperandNo() != 0;
      }
      if (follows && user->getType()->isPointerTy() && seen.insert(user).second) derived.values.push_back(user);
    }
  }
  return derived;
}

// Replaces every instruction's use of a constant expression built on `root`
// by instructions, so that each derived pointer is an instruction.
void expand_constant_expressions(llvm::GlobalVariable& root) {
  std::vector<llvm::Use*> uses;
  std::vector<llvm::ConstantExpr*> expressions;
  auto collect = [&](llvm::Value* value) {
    for (llvm::Use& use : value->uses()) {
      if (llvm::isa<llvm::Instruction>(use.getUser())) uses.push_back(&use);
      else if (auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(use.getUser())) expressions.push_back(expression);
    }
  };
  collect(&root);
  for (size_t i = 0; i < expressions.size(); ++i) collect(expressions[i]);
  // Each expression becomes an instruction at its use; its own operands,
  // expressions on the root too, then become instructions before it.
  while (!uses.empty()) {
    llvm::Use* use = uses.back();
    uses.pop_back();
    auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(use->get());
    if (expression == nullptr) continue;
    llvm::Instruction* expanded = expression->getAsInstruction(insertion_point(*use));
    use->set(expanded);
    for (llvm::Use& operand : expanded->operands())
      if (llvm::isa<llvm::ConstantExpr>(operand.get()) &&
          std::find(expressions.begin(), expressions.end(), operand.get()) != expressions.end())
        uses.push_back(&operand);
  }
  root.removeDeadConstantUsers();
}

const llvm::Module& module_of(const llvm::Value* root) {
  if (const auto* global = llvm::dyn_cast<llvm::GlobalVariable>(root)) return *global->getParent();
  return *llvm::cast<llvm::Instruction>(root)->getModule();
}

// One array of arrays, flattened to [count x element].
class Flattener {
 public:
  Flattener(llvm::Value* root, llvm::Value* flat, llvm::ArrayType* flat_type)
      : root_(root), flat_(flat), flat_type_(flat_type), element_(flat_type->getElementType()),
        offset_type_(llvm::Type::getInt32Ty(root->getContext())),
        element_size_(module_of(root).getDataLayout().getTypeAllocSize(element_)) {}

  void run(const std::vector<llvm::Value*>& derived) {
    choose_followed(derived);
    // Phis first, empty, so that offsets computed through loops can use them.
    for (llvm::Value* value : followed_order_)
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(value))
        offsets_[phi] = llvm::PHINode::Create(offset_type_, phi->getNumIncomingValues(), phi->getName() + ".offset", phi);
    for (llvm::Value* value : followed_order_) offset_of(value);
    for (llvm::Value* value : followed_order_)
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(value)) {
        auto* offset = llvm::cast<llvm::PHINode>(offsets_[phi]);
        for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
          offset->addIncoming(offset_of(phi->getIncomingValue(i)), phi->getIncomingBlock(i));
      }
    // Every use from outside the followed pointers gets its flat address.
    // (A user rewritten whole, a comparison of two of them say, no longer
    // uses the second.)
    for (llvm::Value* value : followed_order_) {
      std::vector<std::pair<llvm::Instruction*, unsigned>> outside;
      for (llvm::Use& use : value->uses())
        if (!followed_.contains(use.getUser()))
          outside.emplace_back(llvm::cast<llvm::Instruction>(use.getUser()), use.getOperandNo());
      for (auto [user, operand] : outside)
        if (!replaced_.contains(user)) rewrite_use(user->getOperandUse(operand));
    }
    for (llvm::Instruction* user : replaced_) user->eraseFromParent();
    // What is left of the followed pointers (the root aside, which the
    // caller erases) uses only itself.
    for (llvm::Value* value : followed_order_)
      if (auto* instruction = llvm::dyn_cast<llvm::Instruction>(value); instruction && value != root_)
        instruction->dropAllReferences();
    for (llvm::Value* value : followed_order_)
      if (auto* instruction = llvm::dyn_cast<llvm::Instruction>(value); instruction && value != root_)
        instruction->eraseFromParent();
  }

 private:
  // The derived pointers whose flat offset is computed: the root, element
  // steps within arrays of the element, casts to those, and phis and selects
  // of nothing else (a phi that also takes another array's pointer keeps
  // its pointers, each given its flat address).
  void choose_followed(const std::vector<llvm::Value*>& derived) {
    std::set<llvm::Value*> candidates;
    for (llvm::Value* value : derived)
      if (value == root_ || llvm::isa<llvm::PHINode, llvm::SelectInst>(value) || stays_in_arrays(value))
        candidates.insert(value);
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = candidates.begin(); it != candidates.end();) {
        if (*it != root_ && !inputs_followed(*it, candidates)) {
          it = candidates.erase(it);
          changed = true;
        } else {
          ++it;
        }
      }
    }
    for (llvm::Value* value : derived)
      if (candidates.contains(value)) {
        followed_.insert(value);
        followed_order_.push_back(value);
      }
  }

  // A GEP or cast whose result still points at the element or an array of it.
  bool stays_in_arrays(llvm::Value* value) const {
    if (!llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst, llvm::AddrSpaceCastInst>(value)) return false;
    llvm::Type* to = pointee(value);
    return to != nullptr && element_count(to, element_).has_value();
  }

  static bool inputs_followed(llvm::Value* value, const std::set<llvm::Value*>& candidates) {
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(value))
      return std::all_of(phi->incoming_values().begin(), phi->incoming_values().end(),
                         [&](llvm::Value* in) { return candidates.contains(in); });
    if (auto* select = llvm::dyn_cast<llvm::SelectInst>(value))
      return candidates.contains(select->getTrueValue()) && candidates.contains(select->getFalseValue());
    return candidates.contains(llvm::cast<llvm::User>(value)->getOperand(0));
  }

  llvm::Value* index(llvm::IRBuilder<>& b, llvm::Value* value) { return b.CreateSExtOrTrunc(value, offset_type_); }

  llvm::Value* scaled(llvm::IRBuilder<>& b, llvm::Value* value, uint64_t count) {
    llvm::Value* i = index(b, value);
    return count == 1 ? i : b.CreateMul(i, llvm::ConstantInt::get(offset_type_, count));
  }

  // The element offset of a followed pointer from the array's start.
  llvm::Value* offset_of(llvm::Value* value) {
    if (auto found = offsets_.find(value); found != offsets_.end()) return found->second;
    llvm::Value* offset = nullptr;
    if (value == root_) {
      offset = llvm::ConstantInt::get(offset_type_, 0);
    } else if (llvm::isa<llvm::BitCastInst, llvm::AddrSpaceCastInst>(value)) {
      offset = offset_of(llvm::cast<llvm::Instruction>(value)->getOperand(0));
    } else if (auto* select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      llvm::Value* if_true = offset_of(select->getTrueValue());
      llvm::Value* if_false = offset_of(select->getFalseValue());
      llvm::IRBuilder<> b(select);
      offset = b.CreateSelect(select->getCondition(), if_true, if_false, select->getName() + ".offset");
    } else {
      auto* gep = llvm::cast<llvm::GetElementPtrInst>(value);
      llvm::Value* base = offset_of(gep->getPointerOperand());
      llvm::IRBuilder<> b(gep);
      offset = add_indices(b, base, *gep, gep->getNumIndices());
    }
    offsets_[value] = offset;
    return offset;
  }

  // `base` plus the first `indices` of `gep`, which walk the arrays of the element.
  llvm::Value* add_indices(llvm::IRBuilder<>& b, llvm::Value* base, llvm::GetElementPtrInst& gep, unsigned indices) {
    llvm::Type* type = gep.getSourceElementType();
    llvm::Value* offset = base;
    for (unsigned i = 0; i < indices; ++i) {
      if (i > 0) type = type->getArrayElementType();
      llvm::Value* step = gep.getOperand(1 + i);
      if (is_zero(step)) continue;
      offset = b.CreateAdd(offset, scaled(b, step, *element_count(type, element_)));
    }
    return offset;
  }

  // flat[offset] as a pointer of `type`, before `before`.
  llvm::Value* flat_address(llvm::Value* offset, llvm::Type* type, llvm::Instruction* before) {
    llvm::IRBuilder<> b(before);
    llvm::Value* zero = llvm::ConstantInt::get(offset_type_, 0);
    llvm::Value* address = b.CreateInBoundsGEP(flat_type_, flat_, {zero, offset});
    return address->getType() == type ? address : b.CreatePointerCast(address, type);
  }

  void rewrite_use(llvm::Use& use) {
    llvm::Value* value = use.get();
    auto* user = llvm::cast<llvm::Instruction>(use.getUser());
    // A step into the element itself (a vector's component, a struct's
    // member): the arrays' indices become the offset, the rest stays.
    if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user); gep != nullptr && use.getOperandNo() == 0) {
      unsigned array_indices = 1;
      for (llvm::Type* type = gep->getSourceElementType(); type != element_; type = type->getArrayElementType())
        ++array_indices;
      llvm::IRBuilder<> b(gep);
      llvm::Value* offset = add_indices(b, offset_of(value), *gep, array_indices);
      llvm::Value* element = flat_address(offset, element_->getPointerTo(flat_->getType()->getPointerAddressSpace()), gep);
      std::vector<llvm::Value*> rest{llvm::ConstantInt::get(offset_type_, 0)};
      for (unsigned i = array_indices; i < gep->getNumIndices(); ++i) rest.push_back(gep->getOperand(1 + i));
      llvm::Value* replacement = gep->isInBounds() ? b.CreateInBoundsGEP(element_, element, rest)
                                                   : b.CreateGEP(element_, element, rest);
      replace(gep, replacement);
      return;
    }
    // Two pointers into the array compared: their offsets are.
    if (auto* compare = llvm::dyn_cast<llvm::ICmpInst>(user)) {
      llvm::Value* other = compare->getOperand(1 - use.getOperandNo());
      if (followed_.contains(other)) {
        llvm::IRBuilder<> b(compare);
        llvm::Value* lhs = offset_of(compare->getOperand(0));
        llvm::Value* rhs = offset_of(compare->getOperand(1));
        // Unsigned, as pointers compare: offsets in the array are not negative.
        llvm::Value* replacement = b.CreateICmp(compare->getUnsignedPredicate(), lhs, rhs);
        replace(compare, replacement);
        return;
      }
    }
    // An address as an integer: the array's, plus the offset's bytes, so
    // that the difference of two such (`q - p`) folds to their offsets'.
    if (auto* integer = llvm::dyn_cast<llvm::PtrToIntInst>(user)) {
      llvm::IRBuilder<> b(integer);
      llvm::Type* type = integer->getType();
      llvm::Value* start = b.CreatePtrToInt(b.CreatePointerCast(flat_, value->getType()), type);
      llvm::Value* bytes = b.CreateMul(b.CreateSExtOrTrunc(offset_of(value), type),
                                       llvm::ConstantInt::get(type, element_size_));
      replace(integer, b.CreateAdd(start, bytes));
      return;
    }
    use.set(flat_address(offset_of(value), value->getType(), insertion_point(use)));
  }

  // `user`'s results are `replacement`'s; it goes once no use of it is pending.
  void replace(llvm::Instruction* user, llvm::Value* replacement) {
    replacement->takeName(user);
    user->replaceAllUsesWith(replacement);
    user->dropAllReferences();
    replaced_.insert(user);
  }

  llvm::Value* root_;
  llvm::Value* flat_;
  llvm::ArrayType* flat_type_;
  llvm::Type* element_;
  llvm::Type* offset_type_;
  uint64_t element_size_;
  std::set<llvm::Value*> followed_;
  std::vector<llvm::Value*> followed_order_;
  std::map<llvm::Value*, llvm::Value*> offsets_;
  std::set<llvm::Instruction*> replaced_;
};

llvm::ArrayType* flat_type_of(llvm::Type* type) {
  llvm::Type* element = innermost_element(type);
  return llvm::ArrayType::get(element, *element_count(type, element));
}

// The initializer's elements in memory order, as one array.
llvm::Constant* flat_initializer(llvm::Constant* initializer, llvm::ArrayType* flat_type) {
  if (llvm::isa<llvm::UndefValue>(initializer)) return llvm::UndefValue::get(flat_type);
  if (initializer->isNullValue()) return llvm::ConstantAggregateZero::get(flat_type);
  std::vector<llvm::Constant*> elements;
  std::vector<llvm::Constant*> pending{initializer};
  // Depth first, in order: the last pushed is the first element.
  while (!pending.empty()) {
    llvm::Constant* constant = pending.back();
    pending.pop_back();
    if (!constant->getType()->isArrayTy()) {
      elements.push_back(constant);
      continue;
    }
    for (uint64_t i = constant->getType()->getArrayNumElements(); i-- > 0;)
      pending.push_back(constant->getAggregateElement(static_cast<unsigned>(i)));
  }
  return llvm::ConstantArray::get(flat_type, elements);
}

bool flatten_alloca(llvm::AllocaInst& alloca) {
  if (!is_array_of_arrays(alloca.getAllocatedType()) || alloca.isArrayAllocation()) return false;
  std::optional<DerivedPointers> derived = derived_pointers(&alloca);
  if (!derived || !derived->stepped) return false;
  llvm::ArrayType* flat_type = flat_type_of(alloca.getAllocatedType());
  auto* flat = new llvm::AllocaInst(flat_type, alloca.getAddressSpace(), nullptr, alloca.getAlign(), "", &alloca);
  flat->takeName(&alloca);
  Flattener(&alloca, flat, flat_type).run(derived->values);
  return true;
}

bool flatten_global(llvm::GlobalVariable& global) {
  if (!is_array_of_arrays(global.getValueType())) return false;
  std::optional<DerivedPointers> derived = derived_pointers(&global);
  if (!derived || !derived->stepped) return false;
  expand_constant_expressions(global);
  derived = derived_pointers(&global);
  if (!derived) return false;
  llvm::ArrayType* flat_type = flat_type_of(global.getValueType());
  auto* flat = new llvm::GlobalVariable(
      *global.getParent(), flat_type, global.isConstant(), global.getLinkage(),
      global.hasInitializer() ? flat_initializer(global.getInitializer(), flat_type) : nullptr, "", &global,
      global.getThreadLocalMode(), global.getAddressSpace(), global.isExternallyInitialized());
  flat->copyAttributesFrom(&global);
  flat->takeName(&global);
  Flattener(&global, flat, flat_type).run(derived->values);
  global.eraseFromParent();
  return true;
}

}  // namespace

int flatten_stepped_arrays(llvm::Module& module) {
  int flattened = 0;
  std::vector<llvm::GlobalVariable*> globals;
  for (llvm::GlobalVariable& global : module.globals()) globals.push_back(&global);
  for (llvm::GlobalVariable* global : globals) flattened += flatten_global(*global);
  for (llvm::Function& function : module) {
    std::vector<llvm::AllocaInst*> allocas;
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction)) allocas.push_back(alloca);
    for (llvm::AllocaInst* alloca : allocas)
      if (flatten_alloca(*alloca)) {
        alloca->eraseFromParent();
        ++flattened;
      }
  }
  return flattened;
}

}  // namespace vkcl
