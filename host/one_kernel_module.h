// one_kernel_module: the module a kernel's pipeline is built from, with that
// kernel's entry point alone, so that a driver sees only the __local memory
// that kernel uses.
//
// Why: Vulkan counts against maxComputeSharedMemorySize the Workgroup
// variables an entry point statically uses (Vulkan 1.3, "Shared memory"
// limits), but NVIDIA's driver (580.159.04, H100) reserves every Workgroup
// variable in the module for each of its entry points. A program whose
// kernels each fit but together pass 48 KiB lost the device when any of them
// ran: three kernels of 24 KiB each, and CLBlast's GEMM program (eleven
// kernels, 62 KiB of __local arrays in all) with NVIDIA's tuned parameters
// (docs/opencl.md, "CLBlast's SGEMM on the H100"). clc writes one module for
// all the kernels of a program (SPIR-V 1.3, whose entry points list only their
// Input and Output variables), and that stays its contract: the runtime
// splits it here, as preserve_denormals adds modes, where the module becomes
// a VkShaderModule.
//
// What: `words` less the other entry points (OpEntryPoint, their
// OpExecutionMode and OpExecutionModeId), every function the kept entry point
// does not reach through OpFunctionCall, and every module-scope variable
// other than Input and Output that those functions do not name (other
// kernels' __local memory, push-constant blocks and storage buffers: the
// validation layer checks every push-constant block of a one-entry-point
// module against the pipeline layout), with the debug names and decorations
// of what went. Types and constants stay (unused ones cost nothing), and so
// do Input and Output variables, which entry points list. A module with the
// one entry point and nothing to remove is returned word for word. An
// operand word that happens to equal a variable's id keeps that variable:
// the scan errs towards keeping. (No variable's initializer names another
// variable in clc's modules.)
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace vkcl::detail {

// Throws Error for a malformed instruction or when `kernel` is not one of the
// module's GLCompute entry points.
std::vector<uint32_t> one_kernel_module(std::span<const uint32_t> words, std::string_view kernel);

}  // namespace vkcl::detail
