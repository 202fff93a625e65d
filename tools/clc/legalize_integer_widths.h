// legalize_integer_widths: integers of widths SPIR-V has no type for (i3,
// i24, i33, ...) widened before the translator.
//
// LLVM's optimizer narrows integers to the bits that matter: InstCombine
// makes `switch (v & 7)` a switch on `trunc i32 %v to i3`, which LowerSwitch
// then turns into comparisons of that i3. SPIRV-LLVM-Translator 15 takes
// 1-, 8-, 16-, 32- and 64-bit integers only ("InvalidBitWidth: Invalid bit
// width in input: 3"). Every value of another width up to 64 bits, scalar or
// vector, is replaced by one of the next width it can take (8, 16, 32, 64)
// that holds it zero-extended: bitwise operations, unsigned comparisons and
// divisions and logical shifts take it as it is; add, sub, mul and shl mask
// their result back to the width; signed operations (comparisons, ashr,
// sdiv, srem, sext, sitofp, smin/smax) move or extend its sign first.
// Constants, phis, selects, switch cases, freezes, vector element accesses,
// truncations and extensions follow. Anything else on such a value (a
// memory access, a call, a bitcast) is a CompileError naming file:line:col
// while debug locations exist; wider integers (i128) are errors too.
#pragma once

#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

void legalize_integer_widths(llvm::Module& module, std::string_view file_name);

}  // namespace vkcl
