// Reading a SPIR-V module's words in host/, which does not link the
// compiler's module IR (spirv/module.h): one instruction at a time, and
// literal strings. Shared by Program's entry-point check and preserve_denormals.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "vkcl/error.h"

namespace vkcl::detail {

struct SpirvInstruction {
  size_t at;                            // word index of the instruction
  size_t count;                         // its words, opcode word included
  spv::Op opcode;
  std::span<const uint32_t> operands;   // the words after the opcode word
};

// Calls `fn` on each instruction after the 5-word header, in order, until it
// returns false. A zero or overlong word count is an Error naming its word.
template <typename Fn>
void for_each_instruction(std::span<const uint32_t> words, Fn&& fn) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size())
      throw Error("SPIR-V: malformed instruction at word " + std::to_string(i));
    if (!fn(SpirvInstruction{i, count, spv::Op(words[i] & 0xffff), words.subspan(i + 1, count - 1)})) return;
    i += count;
  }
}

// A literal string operand: its bytes up to the NUL (or the operand's end).
inline std::string_view string_operand(std::span<const uint32_t> operand_words) {
  const char* chars = reinterpret_cast<const char*>(operand_words.data());
  return {chars, strnlen(chars, operand_words.size() * 4)};
}

}  // namespace vkcl::detail
