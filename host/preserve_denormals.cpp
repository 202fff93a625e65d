#include "preserve_denormals.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "vkcl/error.h"

namespace vkcl::detail {
namespace {

// SPIR-V opcodes, capabilities, execution models and modes (the unified1 grammar).
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpFunction = 54;
constexpr uint32_t kOpExecutionModeId = 331;
constexpr uint32_t kCapabilityFloat16 = 9;
constexpr uint32_t kCapabilityFloat64 = 10;
constexpr uint32_t kCapabilityDenormPreserve = 4464;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kModeDenormPreserve = 4459;
constexpr uint32_t kModeDenormFlushToZero = 4460;
constexpr uint32_t kSpirv14 = 0x10400;
constexpr std::string_view kFloatControls = "SPV_KHR_float_controls";

// A literal string's words: the bytes, a NUL, zero padding to a whole word.
std::vector<uint32_t> string_words(std::string_view text) {
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  std::memcpy(words.data(), text.data(), text.size());
  return words;
}

std::string_view string_operand(std::span<const uint32_t> operand_words) {
  const char* chars = reinterpret_cast<const char*>(operand_words.data());
  return {chars, strnlen(chars, operand_words.size() * 4)};
}

}  // namespace

DenormWidths denorm_preserve_widths(const ModuleFeatures& device, const ModuleReflection& reflection) {
  if (reflection.denorms_are_zero) return {};
  return {device.denorm_preserve_float16, device.denorm_preserve_float32, device.denorm_preserve_float64};
}

std::vector<uint32_t> preserve_denormals(std::span<const uint32_t> words, DenormWidths widths) {
  std::vector<uint32_t> unchanged(words.begin(), words.end());
  if (!widths.any() || words.size() < 5) return unchanged;

  // The header section: what it declares, and the word after the last
  // instruction of each part the new instructions join (0: none).
  bool float16 = false, float64 = false, has_capability = false, has_extension = false;
  size_t after_capabilities = 0, after_extensions = 0, after_modes = 0;
  std::vector<uint32_t> entry_points;                  // GLCompute, in module order
  std::map<uint32_t, std::set<uint32_t>> mode_widths;  // entry point -> widths with a denormal mode
  size_t header_end = 5;  // the first OpFunction, or the end
  while (header_end < words.size()) {
    const size_t i = header_end;
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size())
      throw Error("SPIR-V: malformed instruction at word " + std::to_string(i));
    if (opcode == kOpFunction) break;
    const std::span<const uint32_t> operands = words.subspan(i + 1, count - 1);
    if (opcode == kOpCapability && !operands.empty()) {
      float16 |= operands[0] == kCapabilityFloat16;
      float64 |= operands[0] == kCapabilityFloat64;
      has_capability |= operands[0] == kCapabilityDenormPreserve;
      after_capabilities = i + count;
    } else if (opcode == kOpExtension) {
      has_extension |= string_operand(operands) == kFloatControls;
      after_extensions = i + count;
    } else if (opcode == kOpEntryPoint) {
      if (operands.size() >= 2 && operands[0] == kExecutionModelGLCompute) entry_points.push_back(operands[1]);
      after_modes = i + count;
    } else if (opcode == kOpExecutionMode || opcode == kOpExecutionModeId) {
      // These two modes take a literal width, so only OpExecutionMode carries them.
      if (opcode == kOpExecutionMode && operands.size() >= 3 &&
          (operands[1] == kModeDenormPreserve || operands[1] == kModeDenormFlushToZero))
        mode_widths[operands[0]].insert(operands[2]);
      after_modes = i + count;
    }
    header_end += count;
  }

  std::vector<uint32_t> modes;
  for (uint32_t entry : entry_points)
    for (auto [wanted, width] : {std::pair{widths.float16 && float16, 16u}, {widths.float32, 32u},
                                 {widths.float64 && float64, 64u}})
      if (wanted && !mode_widths[entry].count(width))
        modes.insert(modes.end(), {(4u << 16) | kOpExecutionMode, entry, kModeDenormPreserve, width});
  if (modes.empty()) return unchanged;

  std::vector<uint32_t> capability;
  if (!has_capability) capability = {(2u << 16) | kOpCapability, kCapabilityDenormPreserve};
  std::vector<uint32_t> extension;
  if (!has_extension && words[1] < kSpirv14) {
    std::vector<uint32_t> name = string_words(kFloatControls);
    extension.push_back(static_cast<uint32_t>(name.size() + 1) << 16 | kOpExtension);
    extension.insert(extension.end(), name.begin(), name.end());
  }
  // With no extension yet the new one follows the capabilities, which lead
  // every module (a module with neither starts with them).
  if (after_extensions == 0) {
    capability.insert(capability.end(), extension.begin(), extension.end());
    extension.clear();
    after_extensions = after_capabilities;
  }

  std::vector<uint32_t> result;
  result.reserve(words.size() + capability.size() + extension.size() + modes.size());
  result.insert(result.end(), words.begin(), words.begin() + 5);
  auto insert_after = [&](size_t at) {
    if (at == after_capabilities) result.insert(result.end(), capability.begin(), capability.end());
    if (at == after_extensions) result.insert(result.end(), extension.begin(), extension.end());
    if (at == after_modes) result.insert(result.end(), modes.begin(), modes.end());
  };
  if (after_capabilities == 0) {
    insert_after(0);
    after_capabilities = SIZE_MAX;  // inserted: not again
  }
  for (size_t i = 5; i < header_end;) {
    const uint32_t count = words[i] >> 16;
    result.insert(result.end(), words.begin() + i, words.begin() + i + count);
    i += count;
    insert_after(i);
  }
  result.insert(result.end(), words.begin() + header_end, words.end());
  return result;
}

}  // namespace vkcl::detail
