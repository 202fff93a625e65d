#include "retype_punned_accesses.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/ValueHandle.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/Local.h>

#include "compile_error.h"
#include "source_locations.h"
#include "spir_address_spaces.h"

namespace vkcl {
namespace {

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

// ---------------------------------------------------------------------------
// Vectors seen as their components

// A pointer to a component of vectors of `vector` type starting at `base`:
// `flat` components past `base`'s first (flat may pass the first vector's
// end, and is negative before it).
struct ComponentAddress {
  llvm::Value* base = nullptr;
  llvm::FixedVectorType* vector = nullptr;
  llvm::Value* flat = nullptr;
};

bool logical(const llvm::Value* pointer) {
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  return space == kPrivateAddressSpace || space == kLocalAddressSpace;
}

// A vector type whose flat view the rewrite can address: 2, 4, 8 or 16
// components (a three-component vector has a padding component, which no
// access chain reaches).
llvm::FixedVectorType* flat_vector(llvm::Type* type) {  // nullptr when not
  auto* vector = llvm::dyn_cast_or_null<llvm::FixedVectorType>(type);
  return vector != nullptr && vector->getNumElements() >= 2 && llvm::isPowerOf2_32(vector->getNumElements())
             ? vector
             : nullptr;
}

// Where `pointer`, a pointer to a vector's element type, points, as a
// component of vectors: found through steps over elements (getelementptr
// with one index), a step into a vector (getelementptr vector, i, c) or the
// cast of a vector pointer; `needed` is set when the way there has a cast
// or a component index that is not a constant below the vector's length,
// which Vulkan's logical addressing cannot express. With `builder`, the
// flat index is computed there; without, only whether there is one is.
std::optional<ComponentAddress> component_address(llvm::Value* pointer, llvm::IRBuilder<>* builder, bool& needed) {
  llvm::Type* element = pointee(pointer);
  if (element == nullptr || !logical(pointer)) return std::nullopt;
  auto index64 = [&](llvm::Value* index) { return builder->CreateSExtOrTrunc(index, builder->getInt64Ty()); };
  if (auto* step = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer)) {
    llvm::Value* source = step->getPointerOperand();
    if (step->getNumIndices() == 1 && pointee(source) == element) {
      std::optional<ComponentAddress> inner = component_address(source, builder, needed);
      if (inner && builder) inner->flat = builder->CreateAdd(inner->flat, index64(step->getOperand(1)));
      return inner;
    }
    // A step whose last index picks a vector's component: gep V, p, i, c
    // (component i * n + c of p), or gep T, p, i0, ..., ik, c where the
    // indices before c reach a vector (component c of that vector).
    const unsigned indices = step->getNumIndices();
    if (indices >= 2) {
      // (getIndexedType's first index steps over the pointer, as getelementptr's does.)
      llvm::SmallVector<llvm::Value*, 4> prefix(step->idx_begin(), step->idx_end() - 1);
      auto* vector = llvm::dyn_cast_or_null<llvm::FixedVectorType>(
          llvm::GetElementPtrInst::getIndexedType(step->getSourceElementType(), prefix));
      if (vector == nullptr || vector->getElementType() != element) return std::nullopt;
      llvm::Value* c = step->getOperand(indices);
      auto* component = llvm::dyn_cast<llvm::ConstantInt>(c);
      if (component == nullptr || component->getZExtValue() >= vector->getNumElements()) needed = true;
      if (!builder) return ComponentAddress{source, vector, nullptr};
      if (indices == 2)
        return ComponentAddress{source, vector,
                                builder->CreateAdd(builder->CreateMul(index64(step->getOperand(1)),
                                                                      builder->getInt64(vector->getNumElements())),
                                                   index64(c))};
      llvm::SmallVector<llvm::Value*, 4> to_vector(step->idx_begin(), step->idx_end() - 1);
      return ComponentAddress{builder->CreateInBoundsGEP(step->getSourceElementType(), source, to_vector), vector,
                              index64(c)};
    }
    return std::nullopt;
  }
  if (auto* cast = llvm::dyn_cast<llvm::BitCastInst>(pointer)) {
    // Of a vector pointer, or of an array (of arrays) of vectors: then of its
    // first vector.
    llvm::Value* source = cast->getOperand(0);
    llvm::Type* inner = pointee(source);
    std::vector<llvm::Value*> first;
    while (auto* array = llvm::dyn_cast_or_null<llvm::ArrayType>(inner)) {
      if (builder) first.push_back(builder->getInt64(0));
      inner = array->getElementType();
    }
    auto* vector = llvm::dyn_cast_or_null<llvm::FixedVectorType>(inner);
    if (vector == nullptr || vector->getElementType() != element) return std::nullopt;
    needed = true;
    if (builder && !first.empty()) {
      first.push_back(builder->getInt64(0));
      source = builder->CreateInBoundsGEP(pointee(source), source, first);
    }
    return ComponentAddress{source, vector, builder ? builder->getInt64(0) : nullptr};
  }
  return std::nullopt;
}

// The pointer to component `flat` + `offset` of `address`: vector
// flat >> log2(n), component flat & (n - 1) (floor division, so that a step
// back before the base lands in the vector before it).
llvm::Value* component_pointer(llvm::IRBuilder<>& builder, const ComponentAddress& address, uint64_t offset) {
  const unsigned n = address.vector->getNumElements();
  llvm::Value* flat = offset == 0 ? address.flat : builder.CreateAdd(address.flat, builder.getInt64(offset));
  llvm::Value* which = builder.CreateAShr(flat, llvm::Log2_32(n));
  llvm::Value* component = builder.CreateAnd(flat, n - 1);
  return builder.CreateGEP(address.vector, address.base, {which, component});
}

// Rewrites `access` (a load or a store) when its address is a component of
// vectors reached in a way Vulkan cannot express: through a cast of the
// vector pointer to its element, a component index past the vector's end
// or not constant, or an element pointer cast to a vector of elements (the
// access is then split into one per component). LLVM makes these of
// `vload2(i, (__local char*)char2_array + k)`.
void address_components(llvm::Instruction* access, std::string_view file_name) {
  auto* load = llvm::dyn_cast<llvm::LoadInst>(access);
  auto* store = llvm::dyn_cast<llvm::StoreInst>(access);
  if ((load && load->isAtomic()) || (store && store->isAtomic())) return;
  llvm::Value* address = load ? load->getPointerOperand() : store->getPointerOperand();
  if (!logical(address)) return;
  bool needed = false;
  llvm::Type* accessed = load ? load->getType() : store->getValueOperand()->getType();
  llvm::Value* element_pointer = address;
  auto* whole = llvm::dyn_cast<llvm::FixedVectorType>(accessed);
  if (auto* cast = llvm::dyn_cast<llvm::BitCastInst>(address);
      cast != nullptr && whole != nullptr && pointee(cast->getOperand(0)) == whole->getElementType()) {
    element_pointer = cast->getOperand(0);  // a vector read from its elements
    needed = true;
  } else {
    whole = nullptr;
  }
  const std::optional<ComponentAddress> found = component_address(element_pointer, nullptr, needed);
  if (!found || !needed) return;
  // A three-component vector's fourth element is padding, which no access
  // chain reaches: lower_reinterpreted_memory lays such memory out as words.
  if (flat_vector(found->vector) == nullptr) return;
  llvm::IRBuilder<> builder(access);
  builder.SetCurrentDebugLocation(access->getDebugLoc());
  const ComponentAddress target = *component_address(element_pointer, &builder, needed);
  // The old way there (casts, steps) goes once nothing else uses it.
  const llvm::WeakTrackingVH old_address = address;
  auto drop_old_address = [&] {
    if (old_address) llvm::RecursivelyDeleteTriviallyDeadInstructions(old_address);
  };
  if (whole == nullptr) {
    access->setOperand(load ? 0 : 1, component_pointer(builder, target, 0));
    drop_old_address();
    return;
  }
  const llvm::Align align = load ? load->getAlign() : store->getAlign();
  llvm::Type* element = whole->getElementType();
  const llvm::Align element_align =
      std::min(align, access->getModule()->getDataLayout().getABITypeAlign(element));
  if (load) {
    llvm::Value* value = llvm::PoisonValue::get(whole);
    for (unsigned j = 0; j < whole->getNumElements(); ++j) {
      llvm::LoadInst* part = builder.CreateAlignedLoad(element, component_pointer(builder, target, j), element_align,
                                                       load->isVolatile());
      value = builder.CreateInsertElement(value, part, j);
    }
    load->replaceAllUsesWith(value);
  } else {
    for (unsigned j = 0; j < whole->getNumElements(); ++j)
      builder.CreateAlignedStore(builder.CreateExtractElement(store->getValueOperand(), j),
                                 component_pointer(builder, target, j), element_align, store->isVolatile());
  }
  access->eraseFromParent();
  drop_old_address();
}

}  // namespace

void retype_punned_accesses(llvm::Module& module, std::string_view file_name) {
  Retyper retyper(module);
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    materialize_constant_casts(function);
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction); cast && is_logical_pointer_cast(cast))
        retyper.add(cast);
  }
  retyper.run();
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    // Handles: dropping a rewritten access's old address may delete a load
    // that only it used.
    std::vector<llvm::WeakTrackingVH> accesses;
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (llvm::isa<llvm::LoadInst, llvm::StoreInst>(instruction)) accesses.emplace_back(&instruction);
    for (const llvm::WeakTrackingVH& access : accesses)
      if (access) address_components(llvm::cast<llvm::Instruction>(access), file_name);
  }
}

}  // namespace vkcl
