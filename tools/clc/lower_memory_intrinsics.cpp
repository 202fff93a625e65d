#include "lower_memory_intrinsics.h"

#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/APInt.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ValueHandle.h>
#include <llvm/Transforms/Utils/Local.h>

#include "compile_error.h"
#include "spir_address_spaces.h"

namespace vkcl {
namespace {

constexpr uint64_t kMaxElements = 256;

std::string where(const llvm::Instruction& instruction, std::string_view file_name) {
  const llvm::DILocation* loc = instruction.getDebugLoc().get();
  if (loc == nullptr || loc->getLine() == 0) return std::string(file_name);
  std::string file = loc->getFilename().empty() ? std::string(file_name) : loc->getFilename().str();
  std::string text = file + ":" + std::to_string(loc->getLine());
  if (loc->getColumn() != 0) text += ":" + std::to_string(loc->getColumn());
  return text;
}

struct Piece {
  llvm::Value* pointer;
  llvm::Type* type;
  uint64_t offset;  // bytes from the start of the copy
};

// The pieces (whole objects, in order) that make up the first `size` bytes
// of the object of `type` at `pointer`; false when they do not exist.
bool split(const llvm::DataLayout& layout, llvm::IRBuilder<>& b, llvm::Value* pointer, llvm::Type* type,
           uint64_t size, uint64_t offset, std::vector<Piece>& pieces) {
  const uint64_t type_size = layout.getTypeAllocSize(type);
  if (type_size == size) {
    pieces.push_back({pointer, type, offset});
    return true;
  }
  if (size > type_size || size == 0) return size == 0;
  if (pieces.size() > kMaxElements) return false;
  if (type->isArrayTy() || type->isVectorTy()) {
    llvm::Type* element = type->isArrayTy() ? type->getArrayElementType()
                                            : llvm::cast<llvm::VectorType>(type)->getElementType();
    const uint64_t element_size = layout.getTypeAllocSize(element);
    if (element_size == 0) return false;
    const uint64_t whole = size / element_size;
    if (whole > kMaxElements) return false;
    for (uint64_t i = 0; i < whole; ++i)
      pieces.push_back({b.CreateConstInBoundsGEP2_64(type, pointer, 0, i), element, offset + i * element_size});
    if (size % element_size == 0) return true;
    return split(layout, b, b.CreateConstInBoundsGEP2_64(type, pointer, 0, whole), element, size % element_size,
                 offset + whole * element_size, pieces);
  }
  if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) {
    const llvm::StructLayout* members = layout.getStructLayout(structure);
    for (unsigned i = 0; i < structure->getNumElements(); ++i) {
      const uint64_t start = members->getElementOffset(i);
      if (start >= size) break;  // the rest is padding or beyond the copy
      llvm::Type* member = structure->getElementType(i);
      const uint64_t member_size = layout.getTypeAllocSize(member);
      llvm::Value* member_pointer = b.CreateStructGEP(structure, pointer, i);
      if (start + member_size <= size) {
        pieces.push_back({member_pointer, member, offset + start});
      } else if (!split(layout, b, member_pointer, member, size - start, offset + start, pieces)) {
        return false;
      }
    }
    return true;
  }
  return false;
}

// `size` bytes at `pointer` as pieces: the object it points to split
// (split above) or, in __global memory, where a pointer steps through a
// buffer as `p[k]` does, the elements of its type from it on (memset and
// memcpy of `int* p` that clang makes of stores to p[0..3]).
bool pieces_of(const llvm::DataLayout& layout, llvm::IRBuilder<>& b, llvm::Value* pointer, uint64_t size,
               std::vector<Piece>& pieces) {
  llvm::Type* type = llvm::cast<llvm::PointerType>(pointer->getType())->getNonOpaquePointerElementType();
  if (split(layout, b, pointer, type, size, 0, pieces)) return true;
  pieces.clear();
  const uint64_t element_size = layout.getTypeAllocSize(type);
  if (pointer->getType()->getPointerAddressSpace() != kGlobalAddressSpace || element_size == 0 ||
      size % element_size != 0 || size / element_size > kMaxElements)
    return false;
  for (uint64_t i = 0; i < size / element_size; ++i)
    pieces.push_back({b.CreateConstInBoundsGEP1_64(type, pointer, i), type, i * element_size});
  return true;
}

// The byte a copy stores everywhere when its source is a constant of one
// byte repeated: llvm-spirv writes memset as a copy from such a constant
// (OpenCL SPIR-V has no memset), so a module read back from SPIR-V has them.
std::optional<uint8_t> copied_byte(llvm::MemTransferInst& copy, const llvm::DataLayout& layout) {
  auto* global = llvm::dyn_cast<llvm::GlobalVariable>(copy.getRawSource()->stripPointerCasts());
  if (global == nullptr || !global->isConstant() || !global->hasDefinitiveInitializer()) return std::nullopt;
  const auto* byte = llvm::dyn_cast_or_null<llvm::ConstantInt>(llvm::isBytewiseValue(global->getInitializer(), layout));
  if (byte == nullptr) return std::nullopt;
  return uint8_t(byte->getZExtValue());
}

// The constant of `type` whose every byte is `byte`.
llvm::Constant* splat(llvm::Type* type, uint8_t byte) {
  if (auto* integer = llvm::dyn_cast<llvm::IntegerType>(type))
    return llvm::ConstantInt::get(integer, llvm::APInt::getSplat(integer->getBitWidth(), llvm::APInt(8, byte)));
  if (type->isFloatingPointTy()) {
    const unsigned bits = type->getPrimitiveSizeInBits();
    return llvm::ConstantFP::get(type->getContext(),
                                 llvm::APFloat(type->getFltSemantics(), llvm::APInt::getSplat(bits, llvm::APInt(8, byte))));
  }
  if (byte == 0) return llvm::Constant::getNullValue(type);
  if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type))
    return llvm::ConstantArray::get(array, std::vector<llvm::Constant*>(array->getNumElements(),
                                                                        splat(array->getElementType(), byte)));
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
    return llvm::ConstantVector::getSplat(vector->getElementCount(), splat(vector->getElementType(), byte));
  if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) {
    std::vector<llvm::Constant*> members;
    for (llvm::Type* member : structure->elements()) members.push_back(splat(member, byte));
    return llvm::ConstantStruct::get(structure, members);
  }
  return nullptr;
}

void lower(llvm::MemIntrinsic& call, std::string_view file_name) {
  const llvm::DataLayout& layout = call.getModule()->getDataLayout();
  auto fail = [&](const std::string& why) {
    throw CompileError(where(call, file_name) + ": error: this copy or initialization of memory is not supported: " +
                       why + "\n");
  };
  auto* length = llvm::dyn_cast<llvm::ConstantInt>(call.getLength());
  if (length == nullptr) fail("its size is known only at run time");
  const uint64_t size = length->getZExtValue();
  llvm::IRBuilder<> b(&call);
  llvm::Value* destination = call.getRawDest()->stripPointerCasts();
  auto* destination_type = llvm::cast<llvm::PointerType>(destination->getType());
  if (destination_type->isOpaque()) fail("opaque pointers");
  const llvm::Align destination_align = call.getDestAlign().valueOrOne();
  std::vector<Piece> targets;
  if (!pieces_of(layout, b, destination, size, targets)) fail("its size does not match the types of the memory");

  std::optional<uint8_t> set_byte;
  if (auto* set = llvm::dyn_cast<llvm::MemSetInst>(&call)) {
    auto* byte = llvm::dyn_cast<llvm::ConstantInt>(set->getValue());
    if (byte == nullptr) fail("the value stored is known only at run time");
    set_byte = uint8_t(byte->getZExtValue());
  } else {
    set_byte = copied_byte(llvm::cast<llvm::MemTransferInst>(call), layout);
  }
  if (set_byte) {
    for (const Piece& piece : targets) {
      llvm::Constant* value = splat(piece.type, *set_byte);
      if (value == nullptr) fail("the memory holds pointers");
      b.CreateAlignedStore(value, piece.pointer, llvm::commonAlignment(destination_align, piece.offset),
                           call.isVolatile());
    }
  } else {
    auto& transfer = llvm::cast<llvm::MemTransferInst>(call);
    llvm::Value* source = transfer.getRawSource()->stripPointerCasts();
    auto* source_type = llvm::cast<llvm::PointerType>(source->getType());
    if (source_type->isOpaque()) fail("opaque pointers");
    const llvm::Align source_align = transfer.getSourceAlign().valueOrOne();
    std::vector<Piece> sources;
    if (!pieces_of(layout, b, source, size, sources) || sources.size() != targets.size())
      fail("the source and the destination have different types");
    std::vector<llvm::Value*> values;  // all loads first: memmove may overlap
    for (size_t i = 0; i < sources.size(); ++i) {
      if (sources[i].type != targets[i].type || sources[i].offset != targets[i].offset)
        fail("the source and the destination have different types");
      values.push_back(b.CreateAlignedLoad(sources[i].type, sources[i].pointer,
                                           llvm::commonAlignment(source_align, sources[i].offset), call.isVolatile()));
    }
    for (size_t i = 0; i < targets.size(); ++i)
      b.CreateAlignedStore(values[i], targets[i].pointer, llvm::commonAlignment(destination_align, targets[i].offset),
                           call.isVolatile());
  }
}

}  // namespace

void lower_memory_intrinsics(llvm::Module& module, std::string_view file_name) {
  std::vector<llvm::MemIntrinsic*> calls;
  for (llvm::Function& function : module)
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (auto* call = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction)) calls.push_back(call);
  for (llvm::MemIntrinsic* call : calls) {
    lower(*call, file_name);
    llvm::Value* destination = call->getRawDest();
    llvm::WeakTrackingVH source(
        llvm::isa<llvm::MemTransferInst>(call) ? llvm::cast<llvm::MemTransferInst>(call)->getRawSource() : nullptr);
    call->eraseFromParent();
    // The casts to i8* that clang made for the call would reach the
    // translator as pointer casts, which logical addressing forbids.
    llvm::RecursivelyDeleteTriviallyDeadInstructions(destination);
    if (source) llvm::RecursivelyDeleteTriviallyDeadInstructions(source);
  }
}

}  // namespace vkcl
