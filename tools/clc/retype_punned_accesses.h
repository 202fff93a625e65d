// retype_punned_accesses: loads and stores through a __local or __private
// pointer that was cast to another element type of the same size become
// accesses of the memory's own type, with the value bitcast; on the linked,
// inlined and optimized module, before the translator.
//
// Vulkan's logical addressing (Workgroup, Function and Private memory) has
// no pointer casts, and spirv/legalize_pointers rejects them; values may be
// bitcast freely. The casts come from reading memory's bits as integers: a
// half array read and written as ushort by builtins/vload_store_half.cl, or
// a user's `*(__local uint*)&f`; LLVM's canonical form of `as_ushort(p[i])`
// is such a cast pointer too.
//
// Handles pointer bitcasts in the private and local address spaces (as
// instructions and as constant expressions) between scalars or vectors of
// one size, whose users are loads, stores (as the address), getelementptrs
// with one index and further such casts. Does not touch any other cast (a
// cast to a wider type, a cast pointer passed to a call or stored): the
// lowering (or lower_reinterpreted_memory after it) takes those.
//
// Then vectors seen as their components: an access whose address reaches a
// vector of 2, 4, 8 or 16 elements through a cast of the vector pointer to
// its element, a component index that is not a constant below the vector's
// length (`getelementptr <2 x i8>, p, 0, k`: LLVM's form of `(char*)p + k`),
// steps over elements, or an element pointer cast to a vector of elements
// (a vector load or store, split then into one access per component). Each
// access goes to vector flat >> log2(n), component flat & (n - 1) of the
// vectors' base. This is what `vload2(i, (__local uchar*)uchar2_array + k)`
// and vstore through a cast __private pointer become (the CTS's
// vload_local, vload_private, vstore_private). A 3-component vector seen
// that way is left to lower_reinterpreted_memory: its padding component has
// no place in a Vulkan vector.
#pragma once

#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

// Throws CompileError (naming `file_name`) for what it cannot express.
void retype_punned_accesses(llvm::Module& module, std::string_view file_name = {});

}  // namespace vkcl
