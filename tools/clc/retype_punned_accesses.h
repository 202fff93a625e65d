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
// lowering still rejects those.
#pragma once

namespace llvm {
class Module;
}

namespace vkcl {

void retype_punned_accesses(llvm::Module& module);

}  // namespace vkcl
