// lower_memory_intrinsics: llvm.memcpy, llvm.memmove and llvm.memset as
// typed loads and stores, before the translator.
//
// The translator turns them into OpCopyMemorySized (and memset into a copy
// from a constant array), which needs the Kernel-only Addresses capability.
// clang emits them for aggregate initialisation and copies: a private array
// with a constant initialiser (`int t[8] = {...}` is a memcpy from a
// __constant copy of the initialiser), `= {0}`, struct assignment. Each call
// whose size is constant becomes:
//   - one load and store of the whole object when the size is the size of
//     the destination's type (and, for copies, the source has that type);
//   - else one load and store per element, for up to 256 elements, when both
//     pointers (casts stripped) point to arrays, vectors or structs whose
//     leading elements are of one type that divides the size.
// A pointer into __global memory whose type is smaller than the size steps
// through the buffer by its type (p[0], p[1], ...), as the stores that
// LLVM merged into the call did. memset stores the constant of the
// destination's type that has every byte equal to the value; so does a
// copy from a constant of one byte repeated, which is how llvm-spirv writes
// a memset (a module from clCreateProgramWithIL has them). Anything else (a size known only at run time, a copy
// between unrelated types) is a CompileError naming file:line:col.
#pragma once

#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

void lower_memory_intrinsics(llvm::Module& module, std::string_view file_name);

}  // namespace vkcl
