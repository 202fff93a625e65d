// vkcl's program binaries (CL_PROGRAM_BINARIES, clCreateProgramWithBinary):
// an executable, or a compiled object or library (clCompileProgram,
// clLinkProgram -create-library), for one device.
//
// An executable keeps what it was compiled from as well as its module: a
// kernel whose buffer a storage-buffer binding cannot take runs from the
// same program compiled with buffer addresses (vkcl::load_program), and
// that program is compiled from the binary's input when first needed. A
// compiled object or library is LLVM bitcode, which only the compile worker
// of the same build reads.
//
//   binary  := magic "vkclPRG2" type:u32 options:field input object:field
//              words:field reflection:field
//   input   := kind:u32 source:field objects:list<field> il:field
//              spec_constants:list<(id:u32 value:u64)>
//   field   := length:u64 bytes;  list<T> := count:u64 T*
//
// type is the CL_PROGRAM_BINARY_TYPE_* of the binary; an executable has the
// input, words and reflection, an object or library the object; the other
// fields are empty. Numbers are in the machine's byte order.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compile_options.h"
#include "vulkan_module.h"

namespace vkcl::opencl {

// What an executable is compiled from, so that it can be compiled again
// with other options.
struct ProgramInput {
  enum class Kind : uint32_t { Source, Objects, IL };
  Kind kind = Kind::Source;
  std::string source;                        // Source: OpenCL C (clCreateProgramWithSource)
  std::vector<std::string> objects;          // Objects: compiled objects and libraries (clLinkProgram)
  std::vector<uint32_t> il;                  // IL: SPIR-V (clCreateProgramWithIL)
  std::vector<SpecConstant> spec_constants;  // IL: clSetProgramSpecializationConstant's values
};

struct ProgramBinary {
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  std::string options;  // the build, compile or link options it was made with
  ProgramInput input;   // an executable's
  VulkanModule module;  // an executable's
  std::string object;   // a compiled object's or library's bitcode
};

std::vector<unsigned char> encode_binary(const ProgramBinary& binary);
// nullopt when `bytes` is not such a binary.
std::optional<ProgramBinary> decode_binary(std::span<const unsigned char> bytes);

}  // namespace vkcl::opencl
