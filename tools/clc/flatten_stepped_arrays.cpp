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

// Types with every array of arrays in them made flat: [4 x [4 x i32]] is
// [16 x i32], a struct holding one is a new struct (named for the old one,
// ".flat"), an array of such structs an array of the new ones.
class FlatTypes {
 public:
  llvm::Type* map(llvm::Type* type) {
    if (auto found = mapped_.find(type); found != mapped_.end()) return found->second;
    llvm::Type* flat = type;
    if (is_array_of_arrays(type)) {
      llvm::Type* element = innermost_element(type);
      flat = llvm::ArrayType::get(map(element), *element_count(type, element));
    } else if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) {
      if (llvm::Type* element = map(array->getElementType()); element != array->getElementType())
        flat = llvm::ArrayType::get(element, array->getNumElements());
    } else if (auto* structure = llvm::dyn_cast<llvm::StructType>(type); structure && !structure->isOpaque()) {
      std::vector<llvm::Type*> members;
      for (llvm::Type* member : structure->elements()) members.push_back(map(member));
      if (!std::equal(members.begin(), members.end(), structure->element_begin())) {
        flat = structure->isLiteral()
                   ? static_cast<llvm::Type*>(llvm::StructType::get(type->getContext(), members, structure->isPacked()))
                   : llvm::StructType::create(type->getContext(), members, (structure->getName() + ".flat").str(),
                                              structure->isPacked());
      }
    }
    mapped_[type] = flat;
    return flat;
  }

  // `constant` of `type`, with the same bytes, as map(type).
  llvm::Constant* map(llvm::Constant* constant, llvm::Type* type) {
    llvm::Type* flat = map(type);
    if (flat == type) return constant;
    if (llvm::isa<llvm::UndefValue>(constant)) return llvm::UndefValue::get(flat);
    if (constant->isNullValue()) return llvm::Constant::getNullValue(flat);
    std::vector<llvm::Constant*> parts;
    if (is_array_of_arrays(type)) {
      // The innermost elements in memory order: depth first, the last
      // pushed the next one.
      llvm::Type* element = innermost_element(type);
      std::vector<llvm::Constant*> pending{constant};
      while (!pending.empty()) {
        llvm::Constant* part = pending.back();
        pending.pop_back();
        if (part->getType() == element) {
          parts.push_back(map(part, element));
          continue;
        }
        for (uint64_t i = part->getType()->getArrayNumElements(); i-- > 0;)
          pending.push_back(part->getAggregateElement(static_cast<unsigned>(i)));
      }
      return llvm::ConstantArray::get(llvm::cast<llvm::ArrayType>(flat), parts);
    }
    if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) {
      for (uint64_t i = 0; i < array->getNumElements(); ++i)
        parts.push_back(map(constant->getAggregateElement(static_cast<unsigned>(i)), array->getElementType()));
      return llvm::ConstantArray::get(llvm::cast<llvm::ArrayType>(flat), parts);
    }
    auto* structure = llvm::cast<llvm::StructType>(type);
    for (unsigned i = 0; i < structure->getNumElements(); ++i)
      parts.push_back(map(constant->getAggregateElement(i), structure->getElementType(i)));
    return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(flat), parts);
  }

 private:
  std::map<llvm::Type*, llvm::Type*> mapped_;
};

// Where a derived pointer points in the flattened object. Either
//  - outside the flat arrays (a struct, one of its scalars, an array of
//    structs): `pointer` is the new pointer itself (to map(type)), or
//  - inside a flat array `array` ([N x E'], E' the new type of E):
//    `pointer` points at that array, `offset` is the element offset in it
//    (32 bits), `element` is E (the old type), and `type` is E or an array
//    of arrays of E, which the flat array no longer has.
struct Position {
  llvm::Value* pointer = nullptr;
  llvm::Value* offset = nullptr;
  llvm::ArrayType* array = nullptr;
  llvm::Type* element = nullptr;
  llvm::Type* type = nullptr;
  bool in_flat_array() const { return offset != nullptr; }
};

// Which of the two kinds of Position a derived pointer has, and in which
// flat array: it follows from the types alone, before any instruction is
// made. A phi or select joins pointers of one kind.
struct Kind {
  llvm::ArrayType* array = nullptr;  // null: outside the flat arrays
  llvm::Type* element = nullptr;
  bool operator==(const Kind&) const = default;
};

// One private or program-scope variable, rewritten as its flat type.
class Flattener {
 public:
  Flattener(llvm::Value* root, llvm::Value* flat, llvm::Type* root_type, FlatTypes& types)
      : root_(root), flat_(flat), root_type_(root_type), types_(types),
        layout_(module_of(root).getDataLayout()), offset_type_(llvm::Type::getInt32Ty(root->getContext())) {}

  void run(const std::vector<llvm::Value*>& derived) {
    choose_followed(derived);
    // Phis first, empty, so that positions computed through loops can use them.
    for (llvm::Value* value : followed_order_)
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(value)) {
        const Kind kind = kinds_[phi];
        Position position{nullptr, nullptr, kind.array, kind.element, pointee(phi)};
        if (kind.array != nullptr) {
          position.pointer = llvm::PHINode::Create(kind.array->getPointerTo(address_space(phi)), phi->getNumIncomingValues(),
                                                   phi->getName() + ".array", phi);
          position.offset = llvm::PHINode::Create(offset_type_, phi->getNumIncomingValues(), phi->getName() + ".offset", phi);
        } else {
          position.pointer = llvm::PHINode::Create(new_pointer_type(position.type, phi), phi->getNumIncomingValues(),
                                                   phi->getName() + ".flat", phi);
        }
        positions_[phi] = position;
      }
    for (llvm::Value* value : followed_order_) position_of(value);
    for (llvm::Value* value : followed_order_)
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(value)) {
        const Position& position = positions_[phi];
        for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
          const Position& in = position_of(phi->getIncomingValue(i));
          llvm::cast<llvm::PHINode>(position.pointer)->addIncoming(in.pointer, phi->getIncomingBlock(i));
          if (position.in_flat_array())
            llvm::cast<llvm::PHINode>(position.offset)->addIncoming(in.offset, phi->getIncomingBlock(i));
        }
      }
    // Every use from outside the followed pointers gets its new address.
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
  static const llvm::Module& module_of(const llvm::Value* root) {
    if (const auto* global = llvm::dyn_cast<llvm::GlobalVariable>(root)) return *global->getParent();
    return *llvm::cast<llvm::Instruction>(root)->getModule();
  }

  unsigned address_space(const llvm::Value* pointer) const { return pointer->getType()->getPointerAddressSpace(); }

  llvm::PointerType* new_pointer_type(llvm::Type* old_pointee, const llvm::Value* like) {
    return types_.map(old_pointee)->getPointerTo(address_space(like));
  }

  Kind region_kind(llvm::Type* array_of_arrays) {
    return Kind{llvm::cast<llvm::ArrayType>(types_.map(array_of_arrays)), innermost_element(array_of_arrays)};
  }

  // What a walk of `indices` (the first a step over `type`, the rest into
  // it) from a position of `kind` reaches.
  Kind kind_after(Kind kind, llvm::Type* type, llvm::ArrayRef<llvm::Value*> indices) {
    for (size_t i = 1; i < indices.size(); ++i) {
      if (kind.array != nullptr && type->isArrayTy()) {
        type = type->getArrayElementType();
        continue;
      }
      type = llvm::GetElementPtrInst::getTypeAtIndex(type, indices[i]);
      kind = is_array_of_arrays(type) ? region_kind(type) : Kind{};
    }
    return kind;
  }

  Kind kind_of_cast(Kind from, llvm::Type* to) {
    if (from.array != nullptr && element_count(to, from.element)) return from;
    return is_array_of_arrays(to) ? region_kind(to) : Kind{};
  }

  // The derived pointers whose position is followed: the root, GEPs, casts,
  // and phis and selects of followed pointers of one kind (a phi that also
  // takes another variable's pointer keeps its pointers, each given its new
  // address).
  void choose_followed(const std::vector<llvm::Value*>& derived) {
    std::set<llvm::Value*> candidates(derived.begin(), derived.end());
    for (bool changed = true; changed;) {
      changed = false;
      kinds_.clear();
      kinds_[root_] = is_array_of_arrays(root_type_) ? region_kind(root_type_) : Kind{};
      for (llvm::Value* value : derived) {
        if (value == root_ || !candidates.contains(value)) continue;
        std::optional<Kind> kind = kind_from_inputs(value, candidates);
        if (!kind) {
          candidates.erase(value);
          changed = true;
        } else {
          kinds_[value] = *kind;
        }
      }
    }
    for (llvm::Value* value : derived)
      if (candidates.contains(value)) {
        followed_.insert(value);
        followed_order_.push_back(value);
      }
  }

  // The kind of a derived pointer from its inputs' (a phi's input not yet
  // seen is taken to agree, and checked on the next round), or nullopt if
  // some input is not followed or the inputs disagree.
  std::optional<Kind> kind_from_inputs(llvm::Value* value, const std::set<llvm::Value*>& candidates) {
    auto input = [&](llvm::Value* in) -> std::optional<std::optional<Kind>> {
      if (!candidates.contains(in)) return std::nullopt;
      auto found = kinds_.find(in);
      return found == kinds_.end() ? std::optional<Kind>() : std::optional<Kind>(found->second);
    };
    std::vector<llvm::Value*> inputs;
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(value)) {
      inputs.assign(phi->incoming_values().begin(), phi->incoming_values().end());
    } else if (auto* select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      inputs = {select->getTrueValue(), select->getFalseValue()};
    } else {
      auto known = input(llvm::cast<llvm::User>(value)->getOperand(0));
      if (!known || !*known) return std::nullopt;
      const Kind from = **known;
      if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(value)) {
        std::vector<llvm::Value*> indices(gep->idx_begin(), gep->idx_end());
        return kind_after(from, gep->getSourceElementType(), indices);
      }
      return kind_of_cast(from, pointee(value));
    }
    std::optional<Kind> agreed;
    for (llvm::Value* in : inputs) {
      auto known = input(in);
      if (!known) return std::nullopt;
      if (!*known) continue;
      if (agreed && !(*agreed == **known)) return std::nullopt;
      agreed = **known;
    }
    return agreed.value_or(Kind{});
  }

  llvm::Value* index(llvm::IRBuilder<>& b, llvm::Value* value) { return b.CreateSExtOrTrunc(value, offset_type_); }

  llvm::Value* add_scaled(llvm::IRBuilder<>& b, llvm::Value* offset, llvm::Value* step, uint64_t count) {
    if (is_zero(step)) return offset;
    llvm::Value* i = index(b, step);
    return b.CreateAdd(offset, count == 1 ? i : b.CreateMul(i, llvm::ConstantInt::get(offset_type_, count)));
  }

  // The start of the flat array at `pointer` (map(type)*, type an array of arrays).
  Position enter_flat_array(llvm::Value* pointer, llvm::Type* type) {
    const Kind kind = region_kind(type);
    return Position{pointer, llvm::ConstantInt::get(offset_type_, 0), kind.array, kind.element, type};
  }

  // The position's own pointer, to map(type) (outside: as it is; inside:
  // the element at the offset, cast when the position is an array of them).
  llvm::Value* new_pointer(llvm::IRBuilder<>& b, const Position& position) {
    if (!position.in_flat_array()) return position.pointer;
    llvm::Value* zero = llvm::ConstantInt::get(offset_type_, 0);
    llvm::Value* element = b.CreateInBoundsGEP(position.array, position.pointer, {zero, position.offset});
    return position.type == position.element ? element : b.CreatePointerCast(element, new_pointer_type(position.type, position.pointer));
  }

  // Where `indices` (the first a step over `type`, the rest into it) lead from `position`.
  Position walk(llvm::IRBuilder<>& b, Position position, llvm::ArrayRef<llvm::Value*> indices, bool in_bounds) {
    if (position.in_flat_array()) {
      position.offset = add_scaled(b, position.offset, indices[0], *element_count(position.type, position.element));
    } else if (!is_zero(indices[0])) {
      position.pointer = in_bounds ? b.CreateInBoundsGEP(types_.map(position.type), position.pointer, indices[0])
                                   : b.CreateGEP(types_.map(position.type), position.pointer, indices[0]);
    }
    for (size_t i = 1; i < indices.size(); ++i) {
      if (position.in_flat_array() && position.type->isArrayTy()) {
        position.type = position.type->getArrayElementType();
        position.offset = add_scaled(b, position.offset, indices[i], *element_count(position.type, position.element));
        continue;
      }
      // Into the element (a struct's member, a vector's component), or
      // from outside the flat arrays into a struct or array.
      llvm::Value* pointer = new_pointer(b, position);
      llvm::Type* type = position.type;
      llvm::Value* zero = llvm::ConstantInt::get(offset_type_, 0);
      position = Position{in_bounds ? b.CreateInBoundsGEP(types_.map(type), pointer, {zero, indices[i]})
                                    : b.CreateGEP(types_.map(type), pointer, {zero, indices[i]}),
                          nullptr, nullptr, nullptr, llvm::GetElementPtrInst::getTypeAtIndex(type, indices[i])};
      if (is_array_of_arrays(position.type)) position = enter_flat_array(position.pointer, position.type);
    }
    return position;
  }

  const Position& position_of(llvm::Value* value) {
    if (auto found = positions_.find(value); found != positions_.end()) return found->second;
    Position position;
    if (value == root_) {
      position = is_array_of_arrays(root_type_) ? enter_flat_array(flat_, root_type_)
                                                : Position{flat_, nullptr, nullptr, nullptr, root_type_};
    } else if (llvm::isa<llvm::BitCastInst, llvm::AddrSpaceCastInst>(value)) {
      auto* cast = llvm::cast<llvm::Instruction>(value);
      position = position_of(cast->getOperand(0));
      llvm::IRBuilder<> b(cast);
      llvm::Type* to = pointee(cast);
      if (position.in_flat_array() && element_count(to, position.element)) {
        if (address_space(position.pointer) != address_space(cast))
          position.pointer = b.CreatePointerCast(position.pointer, position.array->getPointerTo(address_space(cast)));
        position.type = to;
      } else {
        position = Position{b.CreatePointerCast(new_pointer(b, position), new_pointer_type(to, cast)), nullptr, nullptr,
                            nullptr, to};
        if (is_array_of_arrays(to)) position = enter_flat_array(position.pointer, to);
      }
    } else if (auto* select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      const Position if_true = position_of(select->getTrueValue());
      const Position if_false = position_of(select->getFalseValue());
      llvm::IRBuilder<> b(select);
      position = if_true;
      position.pointer = b.CreateSelect(select->getCondition(), if_true.pointer, if_false.pointer, select->getName() + ".flat");
      if (position.in_flat_array())
        position.offset = b.CreateSelect(select->getCondition(), if_true.offset, if_false.offset, select->getName() + ".offset");
    } else {
      auto* gep = llvm::cast<llvm::GetElementPtrInst>(value);
      const Position base = position_of(gep->getPointerOperand());
      llvm::IRBuilder<> b(gep);
      std::vector<llvm::Value*> indices(gep->idx_begin(), gep->idx_end());
      position = walk(b, base, indices, gep->isInBounds());
    }
    return positions_[value] = position;
  }

  void rewrite_use(llvm::Use& use) {
    llvm::Value* value = use.get();
    auto* user = llvm::cast<llvm::Instruction>(use.getUser());
    const Position& position = position_of(value);
    llvm::IRBuilder<> b(insertion_point(use));
    // Two pointers into one flat array compared: their offsets are
    // (unsigned, as pointers compare: offsets in the array are not negative).
    if (auto* compare = llvm::dyn_cast<llvm::ICmpInst>(user)) {
      llvm::Value* other = compare->getOperand(1 - use.getOperandNo());
      if (followed_.contains(other) && position.in_flat_array() &&
          position_of(other).in_flat_array() && position_of(other).pointer == position.pointer) {
        llvm::Value* lhs = position_of(compare->getOperand(0)).offset;
        llvm::Value* rhs = position_of(compare->getOperand(1)).offset;
        replace(compare, b.CreateICmp(compare->getUnsignedPredicate(), lhs, rhs));
        return;
      }
    }
    // An address as an integer inside a flat array: the array's, plus the
    // offset's bytes, so that the difference of two such (`q - p`) folds to
    // their offsets'.
    if (auto* integer = llvm::dyn_cast<llvm::PtrToIntInst>(user); integer && position.in_flat_array()) {
      llvm::Type* type = integer->getType();
      llvm::Value* start = b.CreatePtrToInt(b.CreatePointerCast(position.pointer, value->getType()), type);
      const uint64_t size = layout_.getTypeAllocSize(types_.map(position.element));
      llvm::Value* bytes = b.CreateMul(b.CreateSExtOrTrunc(position.offset, type), llvm::ConstantInt::get(type, size));
      replace(integer, b.CreateAdd(start, bytes));
      return;
    }
    llvm::Value* pointer = new_pointer(b, position);
    use.set(pointer->getType() == value->getType() ? pointer : b.CreatePointerCast(pointer, value->getType()));
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
  llvm::Type* root_type_;
  FlatTypes& types_;
  const llvm::DataLayout& layout_;
  llvm::Type* offset_type_;
  std::set<llvm::Value*> followed_;
  std::vector<llvm::Value*> followed_order_;
  std::map<llvm::Value*, Kind> kinds_;
  std::map<llvm::Value*, Position> positions_;
  std::set<llvm::Instruction*> replaced_;
};

bool flatten_alloca(llvm::AllocaInst& alloca, FlatTypes& types) {
  llvm::Type* type = alloca.getAllocatedType();
  if (types.map(type) == type || alloca.isArrayAllocation()) return false;
  std::optional<DerivedPointers> derived = derived_pointers(&alloca);
  if (!derived || !derived->stepped) return false;
  auto* flat = new llvm::AllocaInst(types.map(type), alloca.getAddressSpace(), nullptr, alloca.getAlign(), "", &alloca);
  flat->takeName(&alloca);
  Flattener(&alloca, flat, type, types).run(derived->values);
  return true;
}

bool flatten_global(llvm::GlobalVariable& global, FlatTypes& types) {
  llvm::Type* type = global.getValueType();
  if (types.map(type) == type) return false;
  std::optional<DerivedPointers> derived = derived_pointers(&global);
  if (!derived || !derived->stepped) return false;
  expand_constant_expressions(global);
  derived = derived_pointers(&global);
  if (!derived) return false;
  auto* flat = new llvm::GlobalVariable(
      *global.getParent(), types.map(type), global.isConstant(), global.getLinkage(),
      global.hasInitializer() ? types.map(global.getInitializer(), type) : nullptr, "", &global,
      global.getThreadLocalMode(), global.getAddressSpace(), global.isExternallyInitialized());
  flat->copyAttributesFrom(&global);
  flat->takeName(&global);
  Flattener(&global, flat, type, types).run(derived->values);
  global.eraseFromParent();
  return true;
}

}  // namespace

int flatten_stepped_arrays(llvm::Module& module) {
  int flattened = 0;
  std::vector<llvm::GlobalVariable*> globals;
  for (llvm::GlobalVariable& global : module.globals()) globals.push_back(&global);
  FlatTypes types;
  for (llvm::GlobalVariable* global : globals) flattened += flatten_global(*global, types);
  for (llvm::Function& function : module) {
    std::vector<llvm::AllocaInst*> allocas;
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction)) allocas.push_back(alloca);
    for (llvm::AllocaInst* alloca : allocas)
      if (flatten_alloca(*alloca, types)) {
        alloca->eraseFromParent();
        ++flattened;
      }
  }
  return flattened;
}

}  // namespace vkcl
