// lower_reinterpreted_memory: __private and __local memory whose bytes are
// read as another type than the one it was declared with, or whose address
// is taken as an integer, becomes an array of 32-bit words (an arena) per
// kernel and address space, and every pointer into it a byte address; on the
// linked, inlined and optimized module, after retype_punned_accesses.
//
// Vulkan's logical addressing (Function and Workgroup memory) has neither
// pointer casts nor pointer values: a pointer is an access chain into one
// variable, by its declared type. OpenCL C has both: a `uint w[16]` hashed as
// bytes through a `uchar*`, an `int3` array read as its ints, `(uintptr_t)p
// % 16`. retype_punned_accesses handles the cheap cases (a cast between
// types of one size, vectors seen as their components); this transform is
// the general answer for the rest, as clspv's for the same reason:
//  - The objects involved (allocas; kernel-scope __local variables;
//    program-scope __constant tables, and private arrays with constant
//    initializers, which clang makes such tables), and every object whose
//    pointers meet theirs in a phi, select or comparison, are laid out in
//    one arena, each at an offset aligned to its alignment, as they would
//    be in memory with addresses. A __constant arena is a table of words
//    holding the tables' bytes.
//  - A pointer into the arena is an i32 byte address: kArenaBase plus the
//    offset. A cast is the same address, getelementptr adds its byte offset,
//    a phi or select chooses an address, ptrtoint and inttoptr convert the
//    integer (so a pointer turned into an integer and back addresses the
//    same object, and an alignment test sees the object's alignment),
//    comparisons compare addresses, null is 0.
//  - A load or store of any type becomes word accesses: whole words where
//    the access is word-aligned, a shift and mask within one word for a
//    naturally aligned byte or half-word, byte by byte where the program's
//    alignment promises less; vectors, arrays and structs member by member.
//  - In __local memory, work-items may write neighbouring bytes of one word
//    at once: a store of part of a word is an atomic and plus an atomic or
//    (relaxed, work-group scope), and a load of part of a word an atomic
//    load, so that the program's race-free byte accesses stay race-free.
//    Whole words are plain loads and stores.
//  - __spirv_Atomic* calls on a 32-bit integer in the arena address its
//    word.
// A __local kernel argument read as another type is an arena of its own
// (its array is sized by the host): the kernel is created again with that
// parameter a pointer to 32-bit words, which the lowering declares as a
// Workgroup array of words (the reflection's element size 4).
// Memory that is never reinterpreted keeps its declared type: this costs
// only the kernels that need it.
//
// Refused (CompileError at the store): such a pointer stored in memory.
// Left as they are, for the checks and the lowering after this pass to
// report (they name the construct): memory whose pointers are passed to a
// call or cast to a generic pointer clang could not resolve (device-side
// enqueue's blocks, pipes), an atomic on anything but a 32-bit integer in
// such memory, a __local kernel argument read as another type in a kernel
// that reinterprets other __local memory too, and a pointer that may point
// into an arena or elsewhere (a __constant kernel
// argument). An integer turned into a __constant pointer is not followed (it
// may be a buffer's address).
#pragma once

#include <cstdint>
#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

// The integer value of a pointer to an arena's first byte. Not 0, which is
// null, and a multiple of every alignment OpenCL C types have (the largest
// alignment of the arena's objects raises it).
constexpr uint64_t kArenaBase = 4096;

// Throws CompileError (naming `file_name`) for what it cannot express.
void lower_reinterpreted_memory(llvm::Module& module, std::string_view file_name = {});

}  // namespace vkcl
