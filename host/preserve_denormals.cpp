#include "preserve_denormals.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "spirv_words.h"
#include "vkcl/error.h"

namespace vkcl::detail {
namespace {

constexpr uint32_t kSpirv14 = 0x10400;
constexpr std::string_view kFloatControls = "SPV_KHR_float_controls";
constexpr uint32_t kDenormPreserve = uint32_t(spv::ExecutionMode::DenormPreserve);

// A literal string's words: the bytes, a NUL, zero padding to a whole word.
std::vector<uint32_t> string_words(std::string_view text) {
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  std::memcpy(words.data(), text.data(), text.size());
  return words;
}

uint32_t opcode_word(uint32_t count, spv::Op opcode) { return count << 16 | uint32_t(opcode); }

}  // namespace

DenormWidths denorm_preserve_widths(const ModuleFeatures& device, const ModuleReflection& reflection) {
  if (reflection.denorms_are_zero) return {};
  return {device.denorm_preserve_float16, device.denorm_preserve_float32, device.denorm_preserve_float64};
}

namespace {

// One float-controls execution mode: the mode, the modes that already settle
// a width (DenormFlushToZero settles denormals too), and its capability.
struct FloatControl {
  uint32_t mode;
  uint32_t settled_by_also;
  uint32_t capability;
};
constexpr FloatControl kDenorms{kDenormPreserve, uint32_t(spv::ExecutionMode::DenormFlushToZero),
                                uint32_t(spv::Capability::DenormPreserve)};
constexpr FloatControl kSignedZeros{uint32_t(spv::ExecutionMode::SignedZeroInfNanPreserve),
                                    uint32_t(spv::ExecutionMode::SignedZeroInfNanPreserve),
                                    uint32_t(spv::Capability::SignedZeroInfNanPreserve)};

std::vector<uint32_t> declare_mode(std::span<const uint32_t> words, DenormWidths widths, const FloatControl& control);

}  // namespace

std::vector<uint32_t> preserve_denormals(std::span<const uint32_t> words, DenormWidths widths) {
  return declare_mode(words, widths, kDenorms);
}

DenormWidths signed_zero_preserve_widths(const ModuleFeatures& device) {
  return {device.signed_zero_inf_nan_preserve_float16, device.signed_zero_inf_nan_preserve_float32,
          device.signed_zero_inf_nan_preserve_float64};
}

std::vector<uint32_t> preserve_signed_zeros(std::span<const uint32_t> words, DenormWidths widths) {
  return declare_mode(words, widths, kSignedZeros);
}

namespace {

std::vector<uint32_t> declare_mode(std::span<const uint32_t> words, DenormWidths widths, const FloatControl& control) {
  std::vector<uint32_t> unchanged(words.begin(), words.end());
  if (!widths.any() || words.size() < 5) return unchanged;

  // The header section: what it declares, and the word after the last
  // instruction of each part the new instructions join (0: none).
  bool float16 = false, float64 = false, has_capability = false, has_extension = false;
  size_t after_capabilities = 0, after_extensions = 0, after_modes = 0;
  std::vector<uint32_t> entry_points;                  // GLCompute, in module order
  std::map<uint32_t, std::set<uint32_t>> mode_widths;  // entry point -> widths with a denormal mode
  size_t header_end = words.size();  // the first OpFunction, or the end
  for_each_instruction(words, [&](const SpirvInstruction& i) {
    const auto operands = i.operands;
    const size_t after = i.at + i.count;
    switch (i.opcode) {
      case spv::Op::OpFunction:
        header_end = i.at;
        return false;
      case spv::Op::OpCapability:
        if (!operands.empty()) {
          float16 |= operands[0] == uint32_t(spv::Capability::Float16);
          float64 |= operands[0] == uint32_t(spv::Capability::Float64);
          has_capability |= operands[0] == control.capability;
          after_capabilities = after;
        }
        break;
      case spv::Op::OpExtension:
        has_extension |= string_operand(operands) == kFloatControls;
        after_extensions = after;
        break;
      case spv::Op::OpEntryPoint:
        if (operands.size() >= 2 && operands[0] == uint32_t(spv::ExecutionModel::GLCompute))
          entry_points.push_back(operands[1]);
        after_modes = after;
        break;
      case spv::Op::OpExecutionMode:  // the float-controls modes take a literal width: never OpExecutionModeId
        if (operands.size() >= 3 && (operands[1] == control.mode || operands[1] == control.settled_by_also))
          mode_widths[operands[0]].insert(operands[2]);
        after_modes = after;
        break;
      case spv::Op::OpExecutionModeId:
        after_modes = after;
        break;
      default:
        break;
    }
    return true;
  });

  std::vector<uint32_t> modes;
  for (uint32_t entry : entry_points)
    for (auto [wanted, width] : {std::pair{widths.float16 && float16, 16u}, {widths.float32, 32u},
                                 {widths.float64 && float64, 64u}})
      if (wanted && !mode_widths[entry].count(width))
        modes.insert(modes.end(), {opcode_word(4, spv::Op::OpExecutionMode), entry, control.mode, width});
  if (modes.empty()) return unchanged;

  std::vector<uint32_t> capability;
  if (!has_capability) capability = {opcode_word(2, spv::Op::OpCapability), control.capability};
  std::vector<uint32_t> extension;
  if (!has_extension && words[1] < kSpirv14) {
    std::vector<uint32_t> name = string_words(kFloatControls);
    extension.push_back(opcode_word(uint32_t(name.size() + 1), spv::Op::OpExtension));
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

}  // namespace

}  // namespace vkcl::detail
