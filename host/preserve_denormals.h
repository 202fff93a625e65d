// preserve_denormals: the one change the runtime makes to a module before
// vkCreateShaderModule, asking the device to keep subnormal floats.
//
// Why: Vulkan leaves denormal behaviour to the implementation unless a module
// declares a mode (VK_KHR_shader_float_controls, core in 1.2), and some
// drivers flush fp32 subnormals to zero (NVIDIA's on the H100). OpenCL C 3.0
// requires double subnormals (§7.2), lets a device flush float ones only when
// it does not report CL_FP_DENORM or the program is built with
// -cl-denorms-are-zero (§7.2, and §7.5.3 for what functions may then return).
// vkcl's builtins give the exact results where subnormals are kept, and
// results §7.5.3 allows where they are flushed (builtins/LOWERING.md), but
// kept is what OpenCL programs expect by default. clc's modules stay device
// independent (they are cached and replayed by source and options only), so
// the mode is added here, where the device's properties are known.
//
// What: for each width chosen (DenormWidths), every GLCompute entry point
// without a DenormPreserve or DenormFlushToZero mode for that width gets
// `OpExecutionMode %entry DenormPreserve <width>`; the module gets
// `OpCapability DenormPreserve` and, below SPIR-V 1.4, `OpExtension
// "SPV_KHR_float_controls"`, each only if it lacks it. Nothing else changes,
// and a module that needs nothing is returned word for word.
//
// The same for SignedZeroInfNanPreserve (preserve_signed_zeros): OpenCL C
// honours signed zeros, infinities and NaNs (no -cl-fast-relaxed-math,
// -cl-no-signed-zeros or -cl-finite-math-only is supported), and without the
// mode a driver may fold as if they did not matter: lavapipe (Mesa 22.3.6)
// turned OpConvertFToS then OpConvertSToF into a truncation, so
// (double)(long)(-0.5) was -0.0.
//
// What not: it does not check that the device may take the mode (the caller
// asks only for widths the device preserves; denorm_preserve_widths), adds no
// DenormFlushToZero or rounding mode, does not look at
// which widths an entry point really computes in (16 and 64 follow the
// module's Float16 and Float64 capabilities), and assumes a module whose
// instructions are well-formed (Program checks the header section first).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reflection.h"

namespace vkcl::detail {

struct DenormWidths {
  bool float16 = false, float32 = false, float64 = false;
  bool any() const { return float16 || float32 || float64; }
};

// The widths for which a Program on a device with `device` features adds
// DenormPreserve to a module with `reflection`: those the device preserves
// (ModuleFeatures::denorm_preserve_float*, less DeviceOptions::withheld_features),
// none when the module was built with -cl-denorms-are-zero.
DenormWidths denorm_preserve_widths(const ModuleFeatures& device, const ModuleReflection& reflection);

// `words` with DenormPreserve declared for `widths` as described above: 16
// only where the module declares OpCapability Float16, 64 only where it
// declares Float64, 32 always. Throws Error for a malformed instruction.
std::vector<uint32_t> preserve_denormals(std::span<const uint32_t> words, DenormWidths widths);

// The widths whose signed zeros, infinities and NaNs a device honours
// (ModuleFeatures::signed_zero_inf_nan_preserve_float*).
DenormWidths signed_zero_preserve_widths(const ModuleFeatures& device);

// `words` with SignedZeroInfNanPreserve declared for `widths`, as
// preserve_denormals declares DenormPreserve (an entry point that has the
// mode for a width keeps it).
std::vector<uint32_t> preserve_signed_zeros(std::span<const uint32_t> words, DenormWidths widths);

}  // namespace vkcl::detail
