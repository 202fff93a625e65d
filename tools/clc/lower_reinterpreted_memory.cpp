#include "lower_reinterpreted_memory.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/MathExtras.h>

#include "compile_error.h"
#include "source_locations.h"
#include "spir_address_spaces.h"

namespace vkcl {
namespace {

// The semantics and scope operands of the atomics a __local arena's partial
// words use: relaxed, work-group scope (SPIR-V's numbers, as the builtins'
// __spirv_Atomic* calls take them).
constexpr uint32_t kRelaxed = 0;
constexpr uint32_t kWorkgroupScope = 2;

llvm::Type* pointee(const llvm::Type* pointer_type) {
  const auto* type = llvm::cast<llvm::PointerType>(pointer_type);
  return type->isOpaque() ? nullptr : type->getNonOpaquePointerElementType();
}

bool is_pointer_in(const llvm::Value* value, unsigned space) {
  return value->getType()->isPointerTy() && value->getType()->getPointerAddressSpace() == space;
}

bool is_spirv_atomic(const llvm::CallInst& call) {
  const llvm::Function* callee = call.getCalledFunction();
  return callee != nullptr && callee->getName().contains("__spirv_Atomic");
}

[[noreturn]] void refuse(const llvm::Instruction& at, std::string_view file_name, const std::string& what) {
  throw CompileError(location_of(at, file_name) + ": error: " + what + "\n" + inlining_notes(at, file_name));
}

// The objects of one address space in one kernel, and the pointer values
// derived from them.
struct Object {
  llvm::Value* root = nullptr;  // an alloca, a __local global or a __local argument
  bool needed = false;          // laid out in the arena
  uint64_t offset = 0;          // in the arena
};

class SpaceRewriter {
 public:
  SpaceRewriter(llvm::Function& function, unsigned space, std::string_view file_name)
      : function_(&function), space_(space), file_name_(file_name), layout_(function.getParent()->getDataLayout()),
        context_(function.getContext()), i32_(llvm::Type::getInt32Ty(context_)) {}

  // Returns the function, which is another one where a __local argument's
  // type changed (the old one, without a body, is then the caller's to erase).
  llvm::Function* run() {
    rewrite_space();
    return function_;
  }

 private:
  void rewrite_space() {
    collect_objects();
    collect_integer_pointers();
    if (objects_.empty() && integer_pointers_.empty()) return;
    walk(/*materialized=*/false);
    if (!decide() || !convertible()) return;
    materialize_constant_uses();
    walk(/*materialized=*/true);
    lay_out();
    rewrite();
  }

  // -------------------------------------------------------------------------
  // What is there

  void collect_objects() {
    if (space_ == kPrivateAddressSpace) {
      for (llvm::Instruction& instruction : llvm::instructions(*function_))
        if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
          if (alloca->getAddressSpace() == space_ && alloca->isStaticAlloca()) objects_.push_back({alloca});
      return;
    }
    for (llvm::GlobalVariable& global : function_->getParent()->globals()) {
      if (global.getAddressSpace() != space_ || !used_in_function(&global)) continue;
      if (space_ == kConstantAddressSpace && !global.hasInitializer()) continue;
      objects_.push_back({&global});
    }
    if (space_ == kLocalAddressSpace)
      for (llvm::Argument& argument : function_->args())
        if (is_pointer_in(&argument, space_)) objects_.push_back({&argument});
  }

  bool used_in_function(const llvm::Value* value) const {
    for (const llvm::User* user : value->users()) {
      if (const auto* instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
        if (instruction->getFunction() == function_) return true;
      } else if (llvm::isa<llvm::ConstantExpr>(user) && used_in_function(user)) {
        return true;
      }
    }
    return false;
  }

  // Integers turned into pointers of this space, found once: they point
  // into the arena. (A __constant integer may be a buffer's address as well
  // as a table's: not followed.)
  void collect_integer_pointers() {
    if (space_ == kConstantAddressSpace) return;
    for (llvm::Instruction& instruction : llvm::instructions(*function_))
      if (llvm::isa<llvm::IntToPtrInst>(instruction) && is_pointer_in(&instruction, space_))
        integer_pointers_.push_back(&instruction);
  }

  // Whether a step or cast reaches memory in a way Vulkan's access chains
  // cannot: a cast to another pointee, or a constant vector component past
  // the vector's end (the padding of a 3-component vector).
  static bool reinterprets(const llvm::Operator& op) {
    if (op.getOpcode() == llvm::Instruction::BitCast)
      return pointee(op.getType()) != pointee(op.getOperand(0)->getType());
    if (const auto* step = llvm::dyn_cast<llvm::GEPOperator>(&op)) {
      // getelementptr's indices after the first walk into types: one that
      // walks into a vector past its length, or, for a 3-component vector
      // (whose padding no access chain reaches), one not known.
      llvm::Type* type = step->getSourceElementType();
      for (unsigned i = 2; i < step->getNumOperands(); ++i) {
        if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
          auto* index = llvm::dyn_cast<llvm::ConstantInt>(step->getOperand(i));
          if (index != nullptr && index->getZExtValue() >= vector->getNumElements()) return true;
          if (index == nullptr && !llvm::isPowerOf2_32(vector->getNumElements())) return true;
          type = vector->getElementType();
        } else if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) {
          type = array->getElementType();
        } else if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) {
          auto* index = llvm::cast<llvm::ConstantInt>(step->getOperand(i));
          type = structure->getElementType(unsigned(index->getZExtValue()));
        } else {
          break;
        }
      }
    }
    return false;
  }

  // Follows every object's pointers through its users: the values derived
  // from it, which objects' pointers meet, and what reinterprets or lets a
  // pointer escape. Before materialization constant expressions are
  // followed too; after, they are instructions.
  void walk(bool materialized) {
    origin_.clear();
    derived_.clear();
    accesses_.clear();
    escapes_.clear();
    merges_.clear();
    compared_.clear();
    reinterpreted_.assign(objects_.size(), false);
    std::vector<std::pair<llvm::Value*, size_t>> work;
    for (size_t i = 0; i < objects_.size(); ++i) {
      if (materialized && !objects_[i].needed) continue;
      origin_[objects_[i].root] = i;
      work.push_back({objects_[i].root, i});
    }
    // Integers turned into pointers point into the arena (kInteger: no
    // object of its own).
    for (llvm::Instruction* instruction : integer_pointers_) {
      origin_[instruction] = kInteger;
      derived_.push_back(instruction);
      work.push_back({instruction, kInteger});
    }
    while (!work.empty()) {
      auto [value, object] = work.back();
      work.pop_back();
      for (llvm::User* user : value->users()) {
        auto* instruction = llvm::dyn_cast<llvm::Instruction>(user);
        if (instruction != nullptr && instruction->getFunction() != function_) continue;
        if (instruction == nullptr && !llvm::isa<llvm::ConstantExpr>(user)) continue;
        if (instruction == nullptr && materialized) continue;  // another function's
        if (auto* op = llvm::dyn_cast<llvm::Operator>(user);
            op != nullptr && (llvm::isa<llvm::GEPOperator>(op) || op->getOpcode() == llvm::Instruction::BitCast) &&
            op->getOperand(0) == value) {
          if (reinterprets(*op)) mark(object);
          follow(user, object, work);
        } else if (auto* op = llvm::dyn_cast<llvm::Operator>(user);
                   op != nullptr && op->getOpcode() == llvm::Instruction::PtrToInt) {
          mark(object);
          if (instruction != nullptr) accesses_.push_back(instruction);  // a constant one is materialized later
        } else if (instruction == nullptr) {
          escapes_.push_back({nullptr, object});  // another constant expression (an addrspacecast to generic)
        } else if (llvm::isa<llvm::PHINode, llvm::SelectInst>(instruction)) {
          if (llvm::isa<llvm::SelectInst>(instruction) && instruction->getOperand(0) == value) continue;
          follow(user, object, work);
        } else if (auto* load = llvm::dyn_cast<llvm::LoadInst>(instruction)) {
          accesses_.push_back(load);
        } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(instruction)) {
          if (store->getValueOperand() == value) escapes_.push_back({store, object});
          else accesses_.push_back(store);
        } else if (llvm::isa<llvm::ICmpInst>(instruction)) {
          // Comparing two objects' pointers compares addresses: both in
          // the arena or neither.
          auto [it, added] = compared_.try_emplace(instruction, object);
          if (!added && it->second != object) merges_.push_back({it->second, object});
          accesses_.push_back(instruction);
        } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(instruction)) {
          if (llvm::isa<llvm::DbgInfoIntrinsic>(call)) continue;
          if (is_spirv_atomic(*call) && call->getArgOperand(0) == value) {
            accesses_.push_back(call);
            if (pointee(call->getArgOperand(0)->getType()) != i32_) escapes_.push_back({call, object});
          } else {
            escapes_.push_back({call, object});
          }
        } else {
          escapes_.push_back({instruction, object});
        }
      }
    }
    std::sort(accesses_.begin(), accesses_.end());
    accesses_.erase(std::unique(accesses_.begin(), accesses_.end()), accesses_.end());
  }

  void mark(size_t object) {
    if (object != kInteger) reinterpreted_[object] = true;
  }

  // `user` is a pointer derived from `object`'s; a second object reaching
  // it merges the two.
  void follow(llvm::User* user, size_t object, std::vector<std::pair<llvm::Value*, size_t>>& work) {
    auto [it, added] = origin_.try_emplace(user, object);
    if (!added) {
      if (it->second != object) merges_.push_back({it->second, object});
      return;
    }
    if (auto* instruction = llvm::dyn_cast<llvm::Instruction>(user)) derived_.push_back(instruction);
    work.push_back({user, object});
  }

  // Which objects go into the arena: the reinterpreted ones, those whose
  // pointers meet theirs, and, where an integer becomes a pointer, every
  // object whose address was taken as an integer (already reinterpreted).
  bool decide() {
    bool any = false;
    for (size_t i = 0; i < objects_.size(); ++i)
      if (reinterpreted_[i]) objects_[i].needed = any = true;
    if (!any && integer_pointers_.empty()) return false;
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [a, b] : merges_) {
        bool na = a == kInteger || objects_[a].needed, nb = b == kInteger || objects_[b].needed;
        if (na == nb) continue;
        if (a != kInteger) objects_[a].needed = true;
        if (b != kInteger) objects_[b].needed = true;
        changed = true;
      }
    }
    return true;
  }

  // Constant expressions on a needed __local variable, in this function,
  // become instructions before their users (a phi's before the edge).
  void materialize_constant_uses() {
    std::set<const llvm::Value*> needed;
    for (const Object& object : objects_)
      if (object.needed) needed.insert(object.root);
    auto involves = [&](auto& self, const llvm::Constant* constant) -> bool {
      if (needed.count(constant)) return true;
      const auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(constant);
      if (expression == nullptr) return false;
      return std::any_of(expression->op_begin(), expression->op_end(),
                         [&](const llvm::Use& use) { return self(self, llvm::cast<llvm::Constant>(use.get())); });
    };
    std::vector<llvm::Instruction*> work;
    for (llvm::Instruction& instruction : llvm::instructions(*function_)) work.push_back(&instruction);
    while (!work.empty()) {
      llvm::Instruction* instruction = work.back();
      work.pop_back();
      for (unsigned i = 0; i < instruction->getNumOperands(); ++i) {
        auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(instruction->getOperand(i));
        if (expression == nullptr || !involves(involves, expression)) continue;
        llvm::Instruction* before = instruction;
        if (auto* phi = llvm::dyn_cast<llvm::PHINode>(instruction)) before = phi->getIncomingBlock(i)->getTerminator();
        llvm::Instruction* made = expression->getAsInstruction(before);
        instruction->setOperand(i, made);
        work.push_back(made);
      }
    }
  }

  // Whether every use can be rewritten. A pointer stored in memory is this
  // pass's error to report (nothing later names its place); the rest
  // (passed to a call, used as a generic pointer, an atomic on another type
  // than a 32-bit integer, a __local kernel argument) is left as it was,
  // for the checks after this pass (check_calls: device-side enqueue, pipes,
  // float compare-exchange) and the lowering to report.
  bool convertible() const {
    auto in_arena = [&](size_t object) { return object == kInteger || objects_[object].needed; };
    for (const auto& [escape, object] : escapes_)
      if (escape != nullptr && in_arena(object) && llvm::isa<llvm::StoreInst>(escape))
        refuse(*escape, file_name_,
               "a pointer to " + space_name() +
                   " memory that is read as another type or converted to an integer is stored in memory: "
                   "not supported");
    for (const auto& [escape, object] : escapes_)
      if (in_arena(object)) return false;
    // A __local argument is its own arena (the host sizes its array): only
    // where it is the one object there.
    const auto needed = std::count_if(objects_.begin(), objects_.end(), [](const Object& o) { return o.needed; });
    const auto arguments = std::count_if(objects_.begin(), objects_.end(), [](const Object& o) {
      return o.needed && llvm::isa<llvm::Argument>(o.root);
    });
    return arguments == 0 || needed == 1;
  }

  std::string space_name() const {
    return space_ == kLocalAddressSpace ? "__local" : space_ == kConstantAddressSpace ? "__constant" : "__private";
  }

  // -------------------------------------------------------------------------
  // The arena

  void lay_out() {
    for (Object& object : objects_)
      if (object.needed)
        if (auto* argument = llvm::dyn_cast<llvm::Argument>(object.root)) {
          retype_argument(*argument);
          return;
        }
    uint64_t size = 0;
    llvm::Align largest(4);
    for (Object& object : objects_) {
      if (!object.needed) continue;
      llvm::Type* type = nullptr;
      llvm::Align align;
      if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(object.root)) {
        type = alloca->getAllocatedType();
        align = alloca->getAlign();
        if (alloca->isArrayAllocation()) {
          auto* count = llvm::cast<llvm::ConstantInt>(alloca->getArraySize());
          type = llvm::ArrayType::get(type, count->getZExtValue());
        }
      } else {
        auto* global = llvm::cast<llvm::GlobalVariable>(object.root);
        type = global->getValueType();
        align = layout_.getPreferredAlign(global);
      }
      align = std::max(align, layout_.getABITypeAlign(type));
      largest = std::max(largest, align);
      object.offset = llvm::alignTo(size, align);
      size = object.offset + layout_.getTypeAllocSize(type);
    }
    base_ = llvm::alignTo(kArenaBase, largest);
    const uint64_t words = std::max<uint64_t>(1, llvm::divideCeil(size, 4));
    auto* type = llvm::ArrayType::get(i32_, words);
    if (space_ == kPrivateAddressSpace) {
      llvm::IRBuilder<> builder(&*function_->getEntryBlock().getFirstInsertionPt());
      arena_ = builder.CreateAlloca(type, nullptr, "arena");
    } else if (space_ == kConstantAddressSpace) {
      // The tables' bytes, as words.
      std::vector<uint8_t> bytes(words * 4, 0);
      for (const Object& object : objects_)
        if (object.needed) {
          const auto* global = llvm::cast<llvm::GlobalVariable>(object.root);
          if (!serialize(global->getInitializer(), object.offset, bytes))
            throw CompileError(std::string(file_name_) + ": error: the __constant variable '" +
                               global->getName().str() +
                               "' read as another type has an initializer of addresses, which is not supported\n");
        }
      std::vector<uint32_t> values(words);
      for (uint64_t w = 0; w < words; ++w)
        values[w] = uint32_t(bytes[4 * w]) | uint32_t(bytes[4 * w + 1]) << 8 | uint32_t(bytes[4 * w + 2]) << 16 |
                    uint32_t(bytes[4 * w + 3]) << 24;
      auto* global = new llvm::GlobalVariable(*function_->getParent(), type, true, llvm::GlobalValue::InternalLinkage,
                                              llvm::ConstantDataArray::get(context_, values),
                                              function_->getName() + ".constant_arena", nullptr,
                                              llvm::GlobalValue::NotThreadLocal, space_);
      global->setAlignment(llvm::Align(4));
      arena_ = global;
    } else {
      auto* global = new llvm::GlobalVariable(*function_->getParent(), type, false,
                                              llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(type),
                                              function_->getName() + ".local_arena", nullptr,
                                              llvm::GlobalValue::NotThreadLocal, space_);
      global->setAlignment(llvm::Align(4));
      arena_ = global;
    }
  }

  // Writes `constant`'s bytes, as OpenCL lays them out, at `at`; false
  // for what has no bytes here (an address).
  bool serialize(const llvm::Constant* constant, uint64_t at, std::vector<uint8_t>& bytes) const {
    if (llvm::isa<llvm::UndefValue, llvm::ConstantAggregateZero, llvm::ConstantPointerNull>(constant)) return true;
    auto write = [&](const llvm::APInt& value) {
      const uint64_t size = layout_.getTypeStoreSize(constant->getType());
      for (uint64_t k = 0; k < size && 8 * k < value.getBitWidth(); ++k)
        bytes[at + k] = uint8_t(value.extractBitsAsZExtValue(std::min(8u, value.getBitWidth() - unsigned(8 * k)),
                                                             unsigned(8 * k)));
      return true;
    };
    if (const auto* integer = llvm::dyn_cast<llvm::ConstantInt>(constant)) return write(integer->getValue());
    if (const auto* real = llvm::dyn_cast<llvm::ConstantFP>(constant))
      return write(real->getValueAPF().bitcastToAPInt());
    llvm::Type* type = constant->getType();
    if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) {
      const llvm::StructLayout* fields = layout_.getStructLayout(structure);
      for (unsigned i = 0; i < structure->getNumElements(); ++i)
        if (!serialize(constant->getAggregateElement(i), at + fields->getElementOffset(i), bytes)) return false;
      return true;
    }
    if (type->isArrayTy() || type->isVectorTy()) {
      llvm::Type* element = type->isArrayTy() ? type->getArrayElementType()
                                              : llvm::cast<llvm::FixedVectorType>(type)->getElementType();
      const uint64_t count = type->isArrayTy() ? type->getArrayNumElements()
                                               : llvm::cast<llvm::FixedVectorType>(type)->getNumElements();
      const uint64_t stride = layout_.getTypeAllocSize(element);
      for (uint64_t i = 0; i < count; ++i)
        if (!serialize(constant->getAggregateElement(unsigned(i)), at + i * stride, bytes)) return false;
      return true;
    }
    return false;
  }

  // The kernel again, with `argument` a pointer to 32-bit words: the
  // lowering then declares its Workgroup array of words, sized by the host
  // in bytes over 4 (the reflection's element size). The body moves over;
  // the old function keeps its name's uses until the caller erases it.
  void retype_argument(llvm::Argument& argument) {
    llvm::Function& old = *function_;
    std::vector<llvm::Type*> parameters;
    for (llvm::Argument& a : old.args())
      parameters.push_back(&a == &argument ? llvm::PointerType::get(i32_, space_) : a.getType());
    auto* type = llvm::FunctionType::get(old.getReturnType(), parameters, old.isVarArg());
    auto* kernel = llvm::Function::Create(type, old.getLinkage(), old.getAddressSpace(), "", old.getParent());
    kernel->copyAttributesFrom(&old);
    llvm::SmallVector<std::pair<unsigned, llvm::MDNode*>, 8> metadata;
    old.getAllMetadata(metadata);
    for (const auto& [kind, node] : metadata) kernel->setMetadata(kind, node);
    kernel->getBasicBlockList().splice(kernel->begin(), old.getBasicBlockList());
    for (auto [from, to] : llvm::zip(old.args(), kernel->args())) {
      to.setName(from.getName());
      if (&from == &argument) arena_ = &to;
      else from.replaceAllUsesWith(&to);
    }
    kernel->takeName(&old);
    old.replaceAllUsesWith(llvm::ConstantExpr::getBitCast(kernel, old.getType()));
    function_ = kernel;
    base_ = kArenaBase;
  }

  // -------------------------------------------------------------------------
  // Addresses

  llvm::Value* address(llvm::Value* pointer) {
    if (auto it = addresses_.find(pointer); it != addresses_.end()) return it->second;
    if (llvm::isa<llvm::ConstantPointerNull>(pointer)) return llvm::ConstantInt::get(i32_, 0);
    if (llvm::isa<llvm::UndefValue>(pointer)) return llvm::UndefValue::get(i32_);
    std::string text = std::string(file_name_) + ": error: a pointer that may point to " + space_name() +
                       " memory read as another type (or whose address is an integer) or to other memory";
    if (llvm::isa<llvm::Argument>(pointer)) text += " (the kernel argument '" + pointer->getName().str() + "')";
    throw CompileError(text + " is not supported\n");
  }

  llvm::Value* index32(llvm::IRBuilder<>& builder, llvm::Value* index) {
    return builder.CreateSExtOrTrunc(index, i32_);
  }

  llvm::Value* address_of_step(llvm::IRBuilder<>& builder, llvm::GetElementPtrInst* step) {
    llvm::Value* sum = address(step->getPointerOperand());
    int64_t constant = 0;
    for (auto it = llvm::gep_type_begin(step); it != llvm::gep_type_end(step); ++it) {
      llvm::Value* index = it.getOperand();
      if (llvm::StructType* structure = it.getStructTypeOrNull()) {
        constant += int64_t(layout_.getStructLayout(structure)->getElementOffset(
            unsigned(llvm::cast<llvm::ConstantInt>(index)->getZExtValue())));
        continue;
      }
      const int64_t stride = int64_t(layout_.getTypeAllocSize(it.getIndexedType()).getFixedSize());
      if (auto* constant_index = llvm::dyn_cast<llvm::ConstantInt>(index)) {
        constant += constant_index->getSExtValue() * stride;
      } else {
        llvm::Value* scaled = builder.CreateMul(index32(builder, index), llvm::ConstantInt::get(i32_, stride));
        sum = builder.CreateAdd(sum, scaled);
      }
    }
    if (constant != 0) sum = builder.CreateAdd(sum, llvm::ConstantInt::get(i32_, uint64_t(constant)));
    return sum;
  }

  // Every derived pointer's address, in an order where operands come first
  // (phis get theirs once all are known).
  void compute_addresses() {
    for (const Object& object : objects_)
      if (object.needed) addresses_[object.root] = llvm::ConstantInt::get(i32_, base_ + object.offset);
    std::set<llvm::Instruction*> derived(derived_.begin(), derived_.end());
    std::vector<llvm::PHINode*> phis;
    for (llvm::Instruction* instruction : derived_)
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(instruction)) {
        auto* address_phi = llvm::PHINode::Create(i32_, phi->getNumIncomingValues(), "", phi);
        addresses_[phi] = address_phi;
        phis.push_back(phi);
      }
    llvm::ReversePostOrderTraversal<llvm::Function*> order(function_);
    for (llvm::BasicBlock* block : order) {
      for (llvm::Instruction& instruction : *block) {
        if (!derived.count(&instruction) || llvm::isa<llvm::PHINode>(instruction)) continue;
        llvm::IRBuilder<> builder(&instruction);
        builder.SetCurrentDebugLocation(instruction.getDebugLoc());
        llvm::Value* result = nullptr;
        if (auto* step = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction)) {
          result = address_of_step(builder, step);
        } else if (llvm::isa<llvm::BitCastInst>(instruction)) {
          result = address(instruction.getOperand(0));
        } else if (auto* select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
          result = builder.CreateSelect(select->getCondition(), address(select->getTrueValue()),
                                        address(select->getFalseValue()));
        } else if (llvm::isa<llvm::IntToPtrInst>(instruction)) {
          result = builder.CreateZExtOrTrunc(instruction.getOperand(0), i32_);
        } else {
          throw CompileError(std::string(file_name_) + ": error: internal error in lower_reinterpreted_memory\n");
        }
        addresses_[&instruction] = result;
      }
    }
    for (llvm::PHINode* phi : phis) {
      auto* address_phi = llvm::cast<llvm::PHINode>(addresses_.at(phi));
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        address_phi->addIncoming(address(phi->getIncomingValue(i)), phi->getIncomingBlock(i));
    }
  }

  // -------------------------------------------------------------------------
  // Accesses

  llvm::Value* word_pointer(llvm::IRBuilder<>& builder, llvm::Value* byte_address) {
    llvm::Value* index =
        builder.CreateLShr(builder.CreateSub(byte_address, llvm::ConstantInt::get(i32_, base_)), 2);
    if (llvm::isa<llvm::Argument>(arena_)) return builder.CreateInBoundsGEP(i32_, arena_, {index});
    llvm::Type* arena_type = pointee(arena_->getType());
    return builder.CreateInBoundsGEP(arena_type, arena_, {llvm::ConstantInt::get(i32_, 0), index});
  }

  llvm::Value* bit_shift(llvm::IRBuilder<>& builder, llvm::Value* byte_address) {
    return builder.CreateShl(builder.CreateAnd(byte_address, 3), 3);
  }

  llvm::FunctionCallee atomic(const char* name, unsigned operands) {
    auto* pointer = llvm::PointerType::get(i32_, space_);
    std::vector<llvm::Type*> parameters = {pointer, i32_, i32_};
    if (operands == 4) parameters.push_back(i32_);
    // clang's mangling of the builtins' overloads on `volatile __local uint*`.
    return function_->getParent()->getOrInsertFunction(name, llvm::FunctionType::get(i32_, parameters, false));
  }

  llvm::Value* load_word(llvm::IRBuilder<>& builder, llvm::Value* byte_address, bool is_volatile, bool part) {
    llvm::Value* pointer = word_pointer(builder, byte_address);
    if (part && space_ == kLocalAddressSpace) {
      auto* call = builder.CreateCall(atomic("_Z18__spirv_AtomicLoadPU3AS3Vjjj", 3),
                                      {pointer, builder.getInt32(kWorkgroupScope), builder.getInt32(kRelaxed)});
      return call;
    }
    return builder.CreateAlignedLoad(i32_, pointer, llvm::Align(4), is_volatile);
  }

  // The `bytes` bytes at `byte_address` as an integer of as many bits;
  // `align` is what the program promises of the address.
  llvm::Value* load_bits(llvm::IRBuilder<>& builder, llvm::Value* byte_address, unsigned bytes, llvm::Align align,
                         bool is_volatile) {
    auto* type = builder.getIntNTy(bytes * 8);
    if (bytes == 4 && align >= 4) return load_word(builder, byte_address, is_volatile, false);
    if (bytes == 8 && align >= 4) {
      llvm::Value* low = builder.CreateZExt(load_word(builder, byte_address, is_volatile, false), type);
      llvm::Value* high = builder.CreateZExt(
          load_word(builder, builder.CreateAdd(byte_address, builder.getInt32(4)), is_volatile, false), type);
      return builder.CreateOr(low, builder.CreateShl(high, 32));
    }
    if (bytes <= 2 && align >= bytes) {
      llvm::Value* word = load_word(builder, byte_address, is_volatile, true);
      return builder.CreateTrunc(builder.CreateLShr(word, bit_shift(builder, byte_address)), type);
    }
    // Less aligned than its size: byte by byte, little-endian.
    llvm::Value* value = llvm::ConstantInt::get(type, 0);
    for (unsigned k = 0; k < bytes; ++k) {
      llvm::Value* byte =
          load_bits(builder, builder.CreateAdd(byte_address, builder.getInt32(k)), 1, llvm::Align(1), is_volatile);
      value = builder.CreateOr(value, builder.CreateShl(builder.CreateZExt(byte, type), 8 * k));
    }
    return value;
  }

  void store_bits(llvm::IRBuilder<>& builder, llvm::Value* bits, llvm::Value* byte_address, llvm::Align align,
                  bool is_volatile) {
    const unsigned bytes = bits->getType()->getIntegerBitWidth() / 8;
    if (bytes == 4 && align >= 4) {
      builder.CreateAlignedStore(bits, word_pointer(builder, byte_address), llvm::Align(4), is_volatile);
      return;
    }
    if (bytes == 8 && align >= 4) {
      store_bits(builder, builder.CreateTrunc(bits, i32_), byte_address, align, is_volatile);
      store_bits(builder, builder.CreateTrunc(builder.CreateLShr(bits, 32), i32_),
                 builder.CreateAdd(byte_address, builder.getInt32(4)), align, is_volatile);
      return;
    }
    if (bytes <= 2 && align >= bytes) {
      llvm::Value* shift = bit_shift(builder, byte_address);
      llvm::Value* mask = builder.CreateShl(builder.getInt32(bytes == 1 ? 0xffu : 0xffffu), shift);
      llvm::Value* placed = builder.CreateShl(builder.CreateZExt(bits, i32_), shift);
      llvm::Value* pointer = word_pointer(builder, byte_address);
      if (space_ == kLocalAddressSpace) {
        // Neighbouring bytes may be another work-item's: only this part of
        // the word changes, atomically.
        builder.CreateCall(atomic("_Z17__spirv_AtomicAndPU3AS3Vjjjj", 4),
                           {pointer, builder.getInt32(kWorkgroupScope), builder.getInt32(kRelaxed),
                            builder.CreateNot(mask)});
        builder.CreateCall(atomic("_Z16__spirv_AtomicOrPU3AS3Vjjjj", 4),
                           {pointer, builder.getInt32(kWorkgroupScope), builder.getInt32(kRelaxed), placed});
        return;
      }
      llvm::Value* word = builder.CreateAlignedLoad(i32_, pointer, llvm::Align(4), is_volatile);
      word = builder.CreateOr(builder.CreateAnd(word, builder.CreateNot(mask)), placed);
      builder.CreateAlignedStore(word, pointer, llvm::Align(4), is_volatile);
      return;
    }
    for (unsigned k = 0; k < bytes; ++k)
      store_bits(builder, builder.CreateTrunc(builder.CreateLShr(bits, 8 * k), builder.getInt8Ty()),
                 builder.CreateAdd(byte_address, builder.getInt32(k)), llvm::Align(1), is_volatile);
  }

  [[noreturn]] void refuse_type(const llvm::Instruction& at, llvm::Type* type) {
    std::string name;
    llvm::raw_string_ostream stream(name);
    type->print(stream);
    refuse(at, file_name_,
           "a value of type " + stream.str() + " in " + space_name() +
               " memory that is read as another type is not supported");
  }

  bool plain_scalar(llvm::Type* type) const {
    const uint64_t bits = layout_.getTypeSizeInBits(type);
    return (type->isIntegerTy() || type->isFloatingPointTy()) && (bits == 8 || bits == 16 || bits == 32 || bits == 64) &&
           !type->isX86_FP80Ty() && !type->isFP128Ty() && !type->isPPC_FP128Ty();
  }

  llvm::Value* load(llvm::IRBuilder<>& builder, const llvm::Instruction& at, llvm::Type* type,
                    llvm::Value* byte_address, llvm::Align align, bool is_volatile) {
    if (plain_scalar(type)) {
      const unsigned bytes = unsigned(layout_.getTypeStoreSize(type));
      return builder.CreateBitCast(load_bits(builder, byte_address, bytes, align, is_volatile), type);
    }
    if (type->isPointerTy()) {
      const unsigned space = type->getPointerAddressSpace();
      if (space != kGlobalAddressSpace && space != kConstantAddressSpace) refuse_type(at, type);
      return builder.CreateIntToPtr(load_bits(builder, byte_address, 8, align, is_volatile), type);
    }
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
      const uint64_t size = layout_.getTypeStoreSize(vector);
      if (size == layout_.getTypeAllocSize(vector) && (size == 4 || size == 8) && align >= 4)
        return builder.CreateBitCast(load_bits(builder, byte_address, unsigned(size), align, is_volatile), vector);
      llvm::Type* element = vector->getElementType();
      const uint64_t stride = layout_.getTypeAllocSize(element);
      llvm::Value* value = llvm::PoisonValue::get(vector);
      for (unsigned i = 0; i < vector->getNumElements(); ++i) {
        llvm::Value* part = load(builder, at, element, offset(builder, byte_address, i * stride),
                                 llvm::commonAlignment(align, i * stride), is_volatile);
        value = builder.CreateInsertElement(value, part, i);
      }
      return value;
    }
    if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) {
      const uint64_t stride = layout_.getTypeAllocSize(array->getElementType());
      llvm::Value* value = llvm::PoisonValue::get(array);
      for (unsigned i = 0; i < array->getNumElements(); ++i)
        value = builder.CreateInsertValue(
            value,
            load(builder, at, array->getElementType(), offset(builder, byte_address, i * stride),
                 llvm::commonAlignment(align, i * stride), is_volatile),
            {i});
      return value;
    }
    if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) {
      const llvm::StructLayout* fields = layout_.getStructLayout(structure);
      llvm::Value* value = llvm::PoisonValue::get(structure);
      for (unsigned i = 0; i < structure->getNumElements(); ++i) {
        const uint64_t at_offset = fields->getElementOffset(i);
        value = builder.CreateInsertValue(
            value,
            load(builder, at, structure->getElementType(i), offset(builder, byte_address, at_offset),
                 llvm::commonAlignment(align, at_offset), is_volatile),
            {i});
      }
      return value;
    }
    refuse_type(at, type);
  }

  void store(llvm::IRBuilder<>& builder, const llvm::Instruction& at, llvm::Value* value, llvm::Value* byte_address,
             llvm::Align align, bool is_volatile) {
    llvm::Type* type = value->getType();
    if (plain_scalar(type)) {
      const unsigned bytes = unsigned(layout_.getTypeStoreSize(type));
      store_bits(builder, builder.CreateBitCast(value, builder.getIntNTy(bytes * 8)), byte_address, align,
                 is_volatile);
      return;
    }
    if (type->isPointerTy()) {
      const unsigned space = type->getPointerAddressSpace();
      if (space != kGlobalAddressSpace && space != kConstantAddressSpace) refuse_type(at, type);
      store_bits(builder, builder.CreatePtrToInt(value, builder.getInt64Ty()), byte_address, align, is_volatile);
      return;
    }
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
      const uint64_t size = layout_.getTypeStoreSize(vector);
      if (size == layout_.getTypeAllocSize(vector) && (size == 4 || size == 8) && align >= 4) {
        store_bits(builder, builder.CreateBitCast(value, builder.getIntNTy(unsigned(size) * 8)), byte_address,
                   align, is_volatile);
        return;
      }
      const uint64_t stride = layout_.getTypeAllocSize(vector->getElementType());
      for (unsigned i = 0; i < vector->getNumElements(); ++i)
        store(builder, at, builder.CreateExtractElement(value, i), offset(builder, byte_address, i * stride),
              llvm::commonAlignment(align, i * stride), is_volatile);
      return;
    }
    if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) {
      const uint64_t stride = layout_.getTypeAllocSize(array->getElementType());
      for (unsigned i = 0; i < array->getNumElements(); ++i)
        store(builder, at, builder.CreateExtractValue(value, {i}), offset(builder, byte_address, i * stride),
              llvm::commonAlignment(align, i * stride), is_volatile);
      return;
    }
    if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) {
      const llvm::StructLayout* fields = layout_.getStructLayout(structure);
      for (unsigned i = 0; i < structure->getNumElements(); ++i) {
        const uint64_t at_offset = fields->getElementOffset(i);
        store(builder, at, builder.CreateExtractValue(value, {i}), offset(builder, byte_address, at_offset),
              llvm::commonAlignment(align, at_offset), is_volatile);
      }
      return;
    }
    refuse_type(at, type);
  }

  llvm::Value* offset(llvm::IRBuilder<>& builder, llvm::Value* byte_address, uint64_t bytes) {
    return bytes == 0 ? byte_address : builder.CreateAdd(byte_address, builder.getInt32(uint32_t(bytes)));
  }

  void rewrite_access(llvm::Instruction* access) {
    llvm::IRBuilder<> builder(access);
    builder.SetCurrentDebugLocation(access->getDebugLoc());
    if (auto* load_instruction = llvm::dyn_cast<llvm::LoadInst>(access)) {
      if (load_instruction->isAtomic()) refuse(*access, file_name_, "an atomic load here is not supported");
      llvm::Value* value = load(builder, *access, load_instruction->getType(),
                                address(load_instruction->getPointerOperand()), load_instruction->getAlign(),
                                load_instruction->isVolatile());
      load_instruction->replaceAllUsesWith(value);
    } else if (auto* store_instruction = llvm::dyn_cast<llvm::StoreInst>(access)) {
      if (store_instruction->isAtomic()) refuse(*access, file_name_, "an atomic store here is not supported");
      store(builder, *access, store_instruction->getValueOperand(), address(store_instruction->getPointerOperand()),
            store_instruction->getAlign(), store_instruction->isVolatile());
    } else if (auto* compare = llvm::dyn_cast<llvm::ICmpInst>(access)) {
      llvm::Value* result =
          builder.CreateICmp(compare->getPredicate(), address(compare->getOperand(0)),
                             address(compare->getOperand(1)));
      compare->replaceAllUsesWith(result);
    } else if (auto* to_integer = llvm::dyn_cast<llvm::PtrToIntInst>(access)) {
      to_integer->replaceAllUsesWith(builder.CreateZExtOrTrunc(address(to_integer->getOperand(0)), to_integer->getType()));
    } else {
      auto* call = llvm::cast<llvm::CallInst>(access);
      llvm::Type* type = pointee(call->getArgOperand(0)->getType());
      if (type != i32_)
        refuse(*access, file_name_,
               "an atomic operation on a value other than a 32-bit integer in " + space_name() +
                   " memory that is read as another type is not supported");
      call->setArgOperand(0, word_pointer(builder, address(call->getArgOperand(0))));
      return;  // the call stays
    }
    access->eraseFromParent();
  }

  void rewrite() {
    compute_addresses();
    for (llvm::Instruction* access : accesses_) rewrite_access(access);
    // The old pointers: only each other's users now (and debug intrinsics).
    for (llvm::Instruction* instruction : derived_) {
      for (llvm::User* user : llvm::make_early_inc_range(instruction->users()))
        if (auto* debug = llvm::dyn_cast<llvm::DbgInfoIntrinsic>(user)) debug->eraseFromParent();
    }
    for (llvm::Instruction* instruction : derived_) instruction->dropAllReferences();
    for (llvm::Instruction* instruction : derived_) instruction->eraseFromParent();
    for (Object& object : objects_) {
      if (!object.needed) continue;
      if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(object.root)) {
        for (llvm::User* user : llvm::make_early_inc_range(alloca->users()))
          if (auto* debug = llvm::dyn_cast<llvm::DbgInfoIntrinsic>(user)) debug->eraseFromParent();
        alloca->replaceAllUsesWith(llvm::UndefValue::get(alloca->getType()));
        alloca->eraseFromParent();
      } else if (auto* global = llvm::dyn_cast<llvm::GlobalVariable>(object.root)) {
        global->removeDeadConstantUsers();
        if (global->use_empty()) global->eraseFromParent();
      }
    }
  }

  static constexpr size_t kInteger = ~size_t(0);

  llvm::Function* function_;  // a __local argument read as another type replaces it (retype_argument)
  unsigned space_;
  std::string_view file_name_;
  const llvm::DataLayout& layout_;
  llvm::LLVMContext& context_;
  llvm::IntegerType* i32_;

  std::vector<Object> objects_;
  std::vector<llvm::Instruction*> integer_pointers_;  // inttoptr into this space
  std::vector<bool> reinterpreted_;
  std::map<const llvm::Value*, size_t> origin_;             // derived pointer -> its object
  std::vector<llvm::Instruction*> derived_;                  // in discovery order
  std::vector<llvm::Instruction*> accesses_;                 // loads, stores, compares, ptrtoint, atomics
  // Uses that cannot be rewritten (nullptr: a constant expression), with their object.
  std::vector<std::pair<const llvm::Instruction*, size_t>> escapes_;
  std::vector<std::pair<size_t, size_t>> merges_;            // objects whose pointers meet
  std::map<const llvm::Instruction*, size_t> compared_;      // a comparison -> an object it compares

  llvm::Value* arena_ = nullptr;
  uint64_t base_ = kArenaBase;
  std::map<const llvm::Value*, llvm::Value*> addresses_;  // pointer -> its i32 byte address
};

}  // namespace

void lower_reinterpreted_memory(llvm::Module& module, std::string_view file_name) {
  std::vector<llvm::Function*> functions;
  for (llvm::Function& function : module)
    if (!function.isDeclaration()) functions.push_back(&function);
  for (llvm::Function* function : functions) {
    SpaceRewriter(*function, kPrivateAddressSpace, file_name).run();
    llvm::Function* rewritten = SpaceRewriter(*function, kLocalAddressSpace, file_name).run();
    SpaceRewriter(*rewritten, kConstantAddressSpace, file_name).run();
    if (rewritten != function) function->eraseFromParent();
  }
}

}  // namespace vkcl
