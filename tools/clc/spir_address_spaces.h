// The address spaces of clang's SPIR target, which clc's LLVM modules use
// (clang's SPIRAddrSpaceMap): the OpenCL C address space of a pointer.
#pragma once

namespace vkcl {

constexpr unsigned kPrivateAddressSpace = 0;
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kConstantAddressSpace = 2;
constexpr unsigned kLocalAddressSpace = 3;
constexpr unsigned kGenericAddressSpace = 4;

}  // namespace vkcl
