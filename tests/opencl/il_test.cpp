// Programs from SPIR-V through the ICD (clCreateProgramWithIL,
// cl_khr_il_program): the device's IL versions, building and running a
// module, its specialization constants, CL_PROGRAM_IL, compiling it into
// an object that links with one from source, binaries, and the errors of
// IL that is not SPIR-V, of a version the compiler does not take, or that
// the compiler refuses.
#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cstring>

#include "cl_test.h"

using vkcl_test::ClTest;

namespace {

// out[i] = i + c, c a specialization constant (SpecId 7, 5 by default);
// and a bool one (SpecId 8, false) that adds 1000 when true.
const char* kFill = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "fill" %gid
               OpSource OpenCL_C 120
               OpName %out "out"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %c SpecId 7
               OpDecorate %flag SpecId 8
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
    %v3ulong = OpTypeVector %ulong 3
     %ptr_in = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
          %c = OpSpecConstant %uint 5
       %flag = OpSpecConstantFalse %bool
   %uint_0 = OpConstant %uint 0
%uint_1000 = OpConstant %uint 1000
        %gid = OpVariable %ptr_in Input
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
          %p = OpInBoundsPtrAccessChain %ptr %out %i
        %i32 = OpUConvert %uint %i
      %extra = OpSelect %uint %flag %uint_1000 %uint_0
        %sum = OpIAdd %uint %i32 %c
          %v = OpIAdd %uint %sum %extra
               OpStore %p %v Aligned 4
               OpReturn
               OpFunctionEnd
)";

// What clang and llvm-spirv make of `o[i] = atomic_fetch_add_explicit(g, 1,
// memory_order_acq_rel, memory_scope_device)` on a __global atomic_int in
// OpenCL C 3.0: the pointer cast to Generic, then OpAtomicIAdd on it
// (Device scope, AcquireRelease). The CTS's c11_atomics in spir-v mode.
const char* kGenericAtomic = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GenericPointer
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "count" %gid
               OpSource OpenCL_C 300000
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
 %scope_device = OpConstant %uint 1
 %acq_rel = OpConstant %uint 8
   %v3ulong = OpTypeVector %ulong 3
    %ptr_in = OpTypePointer Input %v3ulong
      %void = OpTypeVoid
       %ptr = OpTypePointer CrossWorkgroup %uint
        %fn = OpTypeFunction %void %ptr %ptr
   %generic = OpTypePointer Generic %uint
       %gid = OpVariable %ptr_in Input
         %k = OpFunction %void None %fn
         %g = OpFunctionParameter %ptr
         %o = OpFunctionParameter %ptr
     %entry = OpLabel
        %gp = OpPtrCastToGeneric %generic %g
       %old = OpAtomicIAdd %uint %gp %scope_device %acq_rel %scope_device
       %ids = OpLoad %v3ulong %gid Aligned 32
         %i = OpCompositeExtract %ulong %ids 0
         %p = OpInBoundsPtrAccessChain %ptr %o %i
               OpStore %p %old Aligned 4
               OpReturn
               OpFunctionEnd
)";

// What llvm-spirv makes of `o[0] = o[1] = o[2] = o[3] = 0` once clang has
// merged the stores into a memset: a copy of 16 bytes from a zero uchar
// array into the int pointer (OpenCL SPIR-V has no memset). The CTS's
// basic kernel_limit_constants in spir-v mode.
const char* kZeroCopy = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "zero"
               OpSource OpenCL_C 300000
               OpDecorate %zeros Constant
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
      %ulong = OpTypeInt 64 0
   %ulong_16 = OpConstant %ulong 16
       %void = OpTypeVoid
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
  %ptr_bytes = OpTypePointer CrossWorkgroup %uchar
    %bytes16 = OpTypeArray %uchar %ulong_16
 %ptr_const16 = OpTypePointer UniformConstant %bytes16
 %ptr_const = OpTypePointer UniformConstant %uchar
       %null = OpConstantNull %bytes16
      %zeros = OpVariable %ptr_const16 UniformConstant %null
          %k = OpFunction %void None %fn
          %o = OpFunctionParameter %ptr
      %entry = OpLabel
          %d = OpBitcast %ptr_bytes %o
          %s = OpBitcast %ptr_const %zeros
               OpCopyMemorySized %d %s %ulong_16 Aligned 4
               OpReturn
               OpFunctionEnd
)";

std::vector<uint32_t> assemble(const char* text, spv_target_env env = SPV_ENV_UNIVERSAL_1_2) {
  spvtools::SpirvTools tools(env);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words));
  return words;
}

class IlTest : public ClTest {
 protected:
  cl_program with_il(const std::vector<uint32_t>& words, cl_int expected = CL_SUCCESS) {
    cl_int error = CL_SUCCESS;
    cl_program p = clCreateProgramWithIL(context, words.data(), words.size() * 4, &error);
    EXPECT_EQ(error, expected);
    return p;
  }

  // Runs fill on 16 work-items.
  std::vector<uint32_t> run_fill(cl_program p) {
    cl_kernel k = kernel(p, "fill");
    cl_mem out = buffer(16 * sizeof(uint32_t));
    EXPECT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    const size_t n = 16;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<uint32_t> got = read<uint32_t>(out, 16);
    clReleaseKernel(k);
    clReleaseMemObject(out);
    return got;
  }

  static std::vector<uint32_t> iota_plus(uint32_t c) {
    std::vector<uint32_t> v(16);
    for (uint32_t i = 0; i < 16; ++i) v[i] = i + c;
    return v;
  }
};

// Not 1.4: the reader lacks some of its instructions (api/opencl/il.h).
TEST_F(IlTest, TheDeviceTakesSpirv1_0To1_3) {
  char versions[128] = {};
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof versions, versions, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::string(versions), "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3");
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> ils(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, size, ils.data(), nullptr), CL_SUCCESS);
  ASSERT_EQ(ils.size(), 4u);
  EXPECT_EQ(std::string(ils[0].name), "SPIR-V");
  EXPECT_EQ(ils[0].version, cl_version(CL_MAKE_VERSION(1, 0, 0)));
  EXPECT_EQ(ils[3].version, cl_version(CL_MAKE_VERSION(1, 3, 0)));
  char extensions[4096] = {};
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, nullptr), CL_SUCCESS);
  EXPECT_NE(std::string(extensions).find("cl_khr_il_program"), std::string::npos) << extensions;
  // The SPIR-V extensions the reader takes.
  EXPECT_NE(std::string(extensions).find("cl_khr_spirv_no_integer_wrap_decoration"), std::string::npos) << extensions;
  EXPECT_NE(std::string(extensions).find("cl_khr_spirv_linkonce_odr"), std::string::npos) << extensions;
  // cl_khr_il_program's entry point, as the extension names it.
  EXPECT_NE(clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR"), nullptr);
}

TEST_F(IlTest, AModuleBuildsAndRuns) {
  const std::vector<uint32_t> words = assemble(kFill);
  cl_program p = with_il(words);
  ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(p);
  EXPECT_EQ(run_fill(p), iota_plus(5));
  // CL_PROGRAM_IL gives the module back; it has no source.
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, 0, nullptr, &size), CL_SUCCESS);
  ASSERT_EQ(size, words.size() * 4);
  std::vector<uint32_t> back(words.size());
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, size, back.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(back, words);
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 1u);
  // What only OpenCL C source has: no attributes, no argument information.
  cl_kernel k = kernel(p, "fill");
  char attributes[8] = {'x'};
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attributes, attributes, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::string(attributes), "");
  cl_kernel_arg_address_qualifier q = 0;
  EXPECT_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(k);
  // A program from source has no IL.
  cl_program from_source = program("kernel void k(global int* x) { x[0] = 1; }");
  EXPECT_EQ(clGetProgramInfo(from_source, CL_PROGRAM_IL, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  clReleaseProgram(from_source);
  clReleaseProgram(p);
}

// An atomic on a generic pointer keeps its scope and semantics through the
// reader (the translator's OpenCL C 2.0 builtins, tools/clc/translate.cpp):
// 16 work-items each take a different old value, and the counter ends at 16.
TEST_F(IlTest, AnAtomicOnAGenericPointerBuildsAndCounts) {
  cl_program p = with_il(assemble(kGenericAtomic));
  ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(p);
  cl_kernel k = kernel(p, "count");
  uint32_t zero = 0;
  cl_mem counter = buffer(sizeof zero, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &zero);
  cl_mem out = buffer(16 * sizeof(uint32_t));
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof counter, &counter), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
  const size_t n = 16;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint32_t> old = read<uint32_t>(out, 16);
  std::sort(old.begin(), old.end());
  std::vector<uint32_t> want(16);
  for (uint32_t i = 0; i < 16; ++i) want[i] = i;
  EXPECT_EQ(old, want);
  EXPECT_EQ(read<uint32_t>(counter, 1), std::vector<uint32_t>{16});
  clReleaseKernel(k);
  clReleaseMemObject(counter);
  clReleaseMemObject(out);
  clReleaseProgram(p);
}

// A copy from a constant of one byte repeated is a memset, and an int
// pointer into a buffer takes the 16 bytes as o[0..3]; o[4] is left alone.
TEST_F(IlTest, ACopyFromAZeroConstantIsAMemsetThroughThePointer) {
  cl_program p = with_il(assemble(kZeroCopy));
  ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(p);
  cl_kernel k = kernel(p, "zero");
  std::vector<uint32_t> ones(5, 1);
  cl_mem out = buffer(ones.size() * sizeof(uint32_t), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ones.data());
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  const size_t n = 1;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<uint32_t>(out, 5), (std::vector<uint32_t>{0, 0, 0, 0, 1}));
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseProgram(p);
}

TEST_F(IlTest, SpecializationConstantsTakeTheirValuesAtBuild) {
  cl_program p = with_il(assemble(kFill));
  const cl_uint c = 42;
  ASSERT_EQ(clSetProgramSpecializationConstant(p, 7, sizeof c, &c), CL_SUCCESS);
  const cl_uchar yes = 1;
  ASSERT_EQ(clSetProgramSpecializationConstant(p, 8, sizeof yes, &yes), CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(p);
  EXPECT_EQ(run_fill(p), iota_plus(42 + 1000));
  // Errors: an id the module lacks, a size not the constant's, no value,
  // a program not from IL.
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 9, sizeof c, &c), CL_INVALID_SPEC_ID);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 7, sizeof(cl_ulong), &c), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 7, sizeof c, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 8, sizeof c, &c), CL_INVALID_VALUE);  // a bool is a cl_uchar
  cl_program from_source = program("kernel void k(global int* x) { x[0] = 1; }");
  EXPECT_EQ(clSetProgramSpecializationConstant(from_source, 7, sizeof c, &c), CL_INVALID_PROGRAM);
  EXPECT_EQ(clSetProgramSpecializationConstant(nullptr, 7, sizeof c, &c), CL_INVALID_PROGRAM);
  clReleaseProgram(from_source);
  clReleaseProgram(p);
}

TEST_F(IlTest, TheExtensionsEntryPointMakesTheSameProgram) {
  using CreateWithIL = cl_program(CL_API_CALL*)(cl_context, const void*, size_t, cl_int*);
  auto create = reinterpret_cast<CreateWithIL>(
      clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR"));
  ASSERT_NE(create, nullptr);
  const std::vector<uint32_t> words = assemble(kFill);
  cl_int error = 1;
  cl_program p = create(context, words.data(), words.size() * 4, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(p);
  EXPECT_EQ(run_fill(p), iota_plus(5));
  clReleaseProgram(p);
}

TEST_F(IlTest, WhatIsNotSpirvIsRefusedAtCreation) {
  std::vector<uint32_t> words = assemble(kFill);
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(context, nullptr, 20, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(context, words.data(), 0, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(context, words.data(), words.size() * 4 - 1, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);  // not whole words
  EXPECT_EQ(clCreateProgramWithIL(context, words.data(), 16, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);  // shorter than a header
  std::vector<uint32_t> bad = words;
  bad[0] = 0x12345678;
  EXPECT_EQ(clCreateProgramWithIL(context, bad.data(), bad.size() * 4, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);  // no magic number
  bad = words;
  bad[1] = 0x00010500;
  EXPECT_EQ(clCreateProgramWithIL(context, bad.data(), bad.size() * 4, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);  // SPIR-V 1.5, not in CL_DEVICE_IL_VERSION
  EXPECT_EQ(clCreateProgramWithIL(nullptr, words.data(), words.size() * 4, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_CONTEXT);
}

TEST_F(IlTest, WhatTheCompilerRefusesIsABuildFailureWithALog) {
  // A header, then an instruction whose word count runs past the end.
  const std::vector<uint32_t> words = {0x07230203, 0x00010000, 0, 10, 0, 0x00ff0011, 1};
  cl_program p = with_il(words);
  EXPECT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  cl_build_status status = 0;
  EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  EXPECT_EQ(status, CL_BUILD_ERROR);
  EXPECT_NE(build_log(p).find("program.spv: error"), std::string::npos) << build_log(p);
  clReleaseProgram(p);
}

TEST_F(IlTest, ACompiledModuleLinksWithAnObjectFromSource) {
  cl_program il = with_il(assemble(kFill));
  const cl_uint c = 3;
  ASSERT_EQ(clSetProgramSpecializationConstant(il, 7, sizeof c, &c), CL_SUCCESS);
  ASSERT_EQ(clCompileProgram(il, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS) << build_log(il);
  cl_program_binary_type type = 0;
  EXPECT_EQ(clGetProgramBuildInfo(il, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  const char* text = "extern kernel void fill(global uint* out);\n"
                     "kernel void twice(global uint* out) { fill(out); out[get_global_id(0)] *= 2; }\n";
  cl_int error = CL_SUCCESS;
  cl_program source = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
  ASSERT_EQ(clCompileProgram(source, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
      << build_log(source);
  cl_program inputs[] = {il, source};
  cl_program linked = clLinkProgram(context, 1, &device, "", 2, inputs, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS) << build_log(linked);
  EXPECT_EQ(run_fill(linked), iota_plus(3));
  cl_kernel k = kernel(linked, "twice");
  cl_mem out = buffer(16 * sizeof(uint32_t));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  const size_t n = 16;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint32_t> expected = iota_plus(3);
  for (uint32_t& v : expected) v *= 2;
  EXPECT_EQ(read<uint32_t>(out, 16), expected);
  clReleaseKernel(k);
  clReleaseMemObject(out);
  for (cl_program p : {linked, source, il}) clReleaseProgram(p);
}

// An executable from SPIR-V keeps the module and its specialization
// constants in its binary.
TEST_F(IlTest, ABinaryOfAModuleBuildsAgain) {
  cl_program p = with_il(assemble(kFill));
  const cl_uint c = 9;
  ASSERT_EQ(clSetProgramSpecializationConstant(p, 7, sizeof c, &c), CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(p);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char* list[] = {binary.data()};
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof list, list, nullptr), CL_SUCCESS);
  const unsigned char* in[] = {binary.data()};
  cl_int status = 1, error = 1;
  cl_program again = clCreateProgramWithBinary(context, 1, &device, &size, in, &status, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(again, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(again);
  EXPECT_EQ(run_fill(again), iota_plus(9));
  clReleaseProgram(again);
  clReleaseProgram(p);
}

}  // namespace
