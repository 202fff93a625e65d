#include "llvm_transforms.h"

#include <algorithm>
#include <array>

#include "legalize_integer_widths.h"
#include "legalize_vectors.h"
#include "lower_memory_intrinsics.h"
#include "retype_punned_accesses.h"

namespace vkcl {
namespace {

// Each transform's header says what it expects of the ones before it.
constexpr std::array kTransforms = {
    LlvmTransform{"lower_memory_intrinsics", lower_memory_intrinsics},
    LlvmTransform{"legalize_vectors", legalize_vectors},
    LlvmTransform{"legalize_integer_widths", legalize_integer_widths},
    LlvmTransform{"retype_punned_accesses", [](llvm::Module& module, std::string_view) { retype_punned_accesses(module); }},
};

}  // namespace

std::span<const LlvmTransform> llvm_transforms() { return kTransforms; }

const LlvmTransform* find_llvm_transform(std::string_view name) {
  const auto found = std::ranges::find(kTransforms, name, &LlvmTransform::name);
  return found == kTransforms.end() ? nullptr : &*found;
}

}  // namespace vkcl
