// legalize_vectors: the vectors of an OpenCL C kernel as Vulkan's SPIR-V can
// hold them, on the linked, inlined and optimized module, before the
// translator.
//
//  - Vectors of 8 and 16 components: Vulkan allows 2, 3 and 4 components
//    (more need Vector16, a Kernel capability). Every SSA value of such a
//    type is split into its scalar components: arithmetic, comparisons,
//    conversions, selects, phis, bitcasts (between any widths, bit by bit,
//    little-endian), component extraction and insertion (a run-time index
//    becomes a chain of selects), shuffles, loads and stores (one access per
//    component, through `getelementptr v, 0, i`), calls of element-wise LLVM
//    intrinsics (one per component) and of element-wise builtins the
//    translator lowers (one call of the 4-component overload per quarter:
//    fabs(float16) becomes four fabs(float4)), and vector.reduce intrinsics.
//    Such types stay only as memory types (a float16 argument, a __local
//    float16 array, a pointer to float16), which spirv/lower_long_vectors turns
//    into arrays.
//  - 3-component vectors in __private, __local and generic memory: clang loads
//    and stores a vec3 as a vec4 through a cast pointer (OpenCL pads vec3 to
//    vec4); logical addressing has no pointer casts, so such a load reads the
//    vec3 itself and widens it, and such a store writes the first three
//    components. Global and constant memory keep the vec4 access.
// Throws CompileError naming file:line:col (while debug locations exist) for
// a use of a long vector it cannot split (a builtin that is not element-wise,
// an aggregate holding one as a value).
#pragma once

#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

void legalize_vectors(llvm::Module& module, std::string_view file_name);

}  // namespace vkcl
