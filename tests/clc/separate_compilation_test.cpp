// The compiler's entry points besides compile_opencl (tools/clc/compiler.h):
// OpenCL's separate compilation (compile_to_library, link_to_library,
// link_libraries), programs from SPIR-V (compile_spirv,
// compile_spirv_to_library), and what every way in adds to the reflection
// from the source (argument types, qualifiers, attributes).
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include <string>
#include <vector>

#include "compiler.h"
#include "reflection.h"

namespace vkcl {
namespace {

CompileOptions defaults() { return {}; }

std::string disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_5);
  std::string text;
  EXPECT_TRUE(tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  return text;
}

std::vector<uint32_t> assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_2);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words));
  return words;
}

// The CompileError's text, or "" when `body` does not throw one.
template <typename Body>
std::string error_of(Body&& body) {
  try {
    body();
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

const char* kCaller = R"(
int twice(int x);
extern kernel void copy(global int* out, global const int* in);
kernel void caller(global int* out, global const int* in) {
  out[get_global_id(0)] = twice(in[get_global_id(0)]);
  copy(out, in);
}
)";

const char* kCallee = R"(
int twice(int x) { return 2 * x; }
kernel void copy(global int* out, global const int* in) { out[1] = in[1]; }
)";

TEST(SeparateCompilation, AnObjectIsBitcodeThatNeedsNoKernelOrDefinitions) {
  const LibraryResult object = compile_to_library("int f(int x);\nint g(int x) { return f(x) + 1; }\n", "lib.cl",
                                                  defaults());
  ASSERT_GE(object.bitcode.size(), 4u);
  EXPECT_EQ(object.bitcode.substr(0, 4), std::string("BC\xc0\xde", 4));  // LLVM bitcode's magic
  EXPECT_EQ(object.warnings, "");
}

TEST(SeparateCompilation, AnObjectKeepsClangsWarningsAndErrors) {
  const LibraryResult object = compile_to_library("#warning careful\nint g(void) { return 1; }\n", "w.cl", defaults());
  EXPECT_NE(object.warnings.find("w.cl:1:2: warning: careful"), std::string::npos) << object.warnings;
  const std::string error = error_of([] { compile_to_library("int g(void) { return nope; }\n", "e.cl", defaults()); });
  EXPECT_NE(error.find("e.cl:1:22: error: use of undeclared identifier 'nope'"), std::string::npos) << error;
}

TEST(SeparateCompilation, AnObjectSeesItsInputHeaders) {
  const InputHeader header{"inc/twice.h", "int twice(int x);\n"};
  const LibraryResult object =
      compile_to_library("#include \"inc/twice.h\"\nint four(void) { return twice(2); }\n", "h.cl", defaults(),
                         std::span(&header, 1));
  EXPECT_FALSE(object.bitcode.empty());
}

TEST(SeparateCompilation, ALinkCallsAcrossObjectsAndKernels) {
  const std::vector<std::string> objects = {compile_to_library(kCaller, "caller.cl", defaults()).bitcode,
                                            compile_to_library(kCallee, "callee.cl", defaults()).bitcode};
  const CompileResult linked = link_libraries(objects, "program.cl", defaults());
  ASSERT_FALSE(linked.module.words.empty());
  const ModuleReflection& r = linked.module.reflection;
  ASSERT_NE(r.find_kernel("caller"), nullptr);
  ASSERT_NE(r.find_kernel("copy"), nullptr);
  EXPECT_EQ(r.find_kernel("caller")->args[1].type_name, "int*");
  EXPECT_EQ(r.find_kernel("caller")->args[1].type_qualifiers, uint32_t(kArgTypeConst));
}

TEST(SeparateCompilation, ALibraryLinksLikeItsObjects) {
  const std::vector<std::string> callee = {compile_to_library(kCallee, "callee.cl", defaults()).bitcode};
  const LibraryResult library = link_to_library(callee, "library");
  ASSERT_FALSE(library.bitcode.empty());
  const std::vector<std::string> objects = {compile_to_library(kCaller, "caller.cl", defaults()).bitcode,
                                            library.bitcode};
  const CompileResult linked = link_libraries(objects, "program.cl", defaults());
  EXPECT_NE(linked.module.reflection.find_kernel("caller"), nullptr);
}

TEST(SeparateCompilation, ASymbolDefinedTwiceIsALinkError) {
  const std::string callee = compile_to_library(kCallee, "callee.cl", defaults()).bitcode;
  const std::vector<std::string> objects = {callee, callee};
  const std::string error = error_of([&] { link_libraries(objects, "program.cl", defaults()); });
  EXPECT_NE(error.find("program.cl: error: "), std::string::npos) << error;
  EXPECT_NE(error.find("multiply defined"), std::string::npos) << error;
  EXPECT_NE(error_of([&] { link_to_library(objects, "library"); }).find("multiply defined"), std::string::npos);
}

TEST(SeparateCompilation, ACallToAFunctionDefinedNowhereIsALinkErrorAtTheCall) {
  const std::vector<std::string> objects = {compile_to_library(kCaller, "caller.cl", defaults()).bitcode};
  const std::string error = error_of([&] { link_libraries(objects, "program.cl", defaults()); });
  EXPECT_NE(error.find("caller.cl:5:"), std::string::npos) << error;
  EXPECT_NE(error.find("'twice' is not supported: it is neither defined"), std::string::npos) << error;
}

TEST(SeparateCompilation, WhatIsNotBitcodeIsRefused) {
  const std::vector<std::string> objects = {"not bitcode"};
  const std::string error = error_of([&] { link_libraries(objects, "program.cl", defaults()); });
  EXPECT_NE(error.find("program.cl: error: input 1 is not a compiled object or library"), std::string::npos) << error;
  EXPECT_NE(error_of([] { link_libraries({}, "program.cl", defaults()); }).find("nothing to link"), std::string::npos);
}

TEST(SeparateCompilation, ObjectsOfTwoOpenCLCVersionsLink) {
  CompileOptions cl3;
  cl3.cl_std = OpenCLStd::CL3_0;
  const std::vector<std::string> objects = {compile_to_library(kCaller, "caller.cl", defaults()).bitcode,
                                            compile_to_library(kCallee, "callee.cl", cl3).bitcode};
  EXPECT_FALSE(link_libraries(objects, "program.cl", defaults()).module.words.empty());
}

// What the source says of kernels and their arguments reaches the
// reflection, from clang's metadata (kernel_source_info.h).
TEST(KernelSourceInfo, ArgumentTypesQualifiersAndAttributes) {
  const char* source = R"(
typedef struct { int a; } pair;
struct named { float f; };
__kernel __attribute__((reqd_work_group_size(8, 2, 1))) __attribute__((work_group_size_hint(4, 1, 1)))
__attribute__((vec_type_hint(uint4)))
void k(__global const float4* restrict a, __constant int* c, volatile __global uint* v, unsigned int n, pair p,
       struct named s, __local char* l, long unsigned q) {
  v[0] = (uint)a[0].x + c[0] + n + p.a + (uint)s.f + l[0] + (uint)q;
}
kernel void plain(global int* x) { x[0] = 1; }
)";
  const CompileResult result = compile_opencl(source, "k.cl", defaults());
  const KernelReflection* k = result.module.reflection.find_kernel("k");
  ASSERT_NE(k, nullptr);
  const std::vector<std::string> types = {"float4*", "int*", "uint*", "uint", "pair", "struct named", "char*", "ulong"};
  ASSERT_EQ(k->args.size(), types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(k->args[i].type_name, types[i]) << i;
    EXPECT_EQ(k->args[i].access, ArgAccess::None) << i;
  }
  EXPECT_EQ(k->args[0].type_qualifiers, uint32_t(kArgTypeConst | kArgTypeRestrict));
  EXPECT_EQ(k->args[1].type_qualifiers, uint32_t(kArgTypeConst));  // a __constant pointer
  EXPECT_EQ(k->args[2].type_qualifiers, uint32_t(kArgTypeVolatile));
  EXPECT_EQ(k->args[3].type_qualifiers, 0u);
  EXPECT_EQ(k->attributes, "reqd_work_group_size(8,2,1) work_group_size_hint(4,1,1) vec_type_hint(uint4)");
  EXPECT_EQ(result.module.reflection.find_kernel("plain")->attributes, "");
  // Through the text format too.
  const ModuleReflection parsed = parse_reflection(serialize(result.module.reflection));
  EXPECT_EQ(parsed.find_kernel("k")->args[5].type_name, "struct named");
  EXPECT_EQ(parsed.find_kernel("k")->attributes, k->attributes);
}

TEST(KernelSourceInfo, VecTypeHintsNameOpenCLTypes) {
  const std::vector<std::pair<std::string, std::string>> hints = {
      {"float", "float"}, {"char16", "char16"}, {"ushort3", "ushort3"}, {"long2", "long2"}, {"double8", "double8"}};
  for (const auto& [written, reported] : hints) {
    const std::string source = "__kernel __attribute__((vec_type_hint(" + written + "))) void k(global int* x) { x[0] = 1; }\n";
    const CompileResult result = compile_opencl(source, "k.cl", defaults());
    EXPECT_EQ(result.module.reflection.kernels.at(0).attributes, "vec_type_hint(" + reported + ")") << written;
  }
}

// Programs from SPIR-V: the translator's own Kernel SPIR-V of a program
// reads back and compiles to the same kernels.
TEST(CompileSpirv, KernelSpirvCompilesToTheSameKernels) {
  CompileOptions translate_only;
  translate_only.lower = false;
  const CompileResult translated = compile_opencl(kCallee, "callee.cl", translate_only);
  ASSERT_FALSE(translated.kernel_spirv.empty());
  const CompileResult result = compile_spirv(translated.kernel_spirv, "program.spv", defaults());
  ASSERT_FALSE(result.module.words.empty());
  const KernelReflection* copy = result.module.reflection.find_kernel("copy");
  ASSERT_NE(copy, nullptr);
  ASSERT_EQ(copy->args.size(), 2u);
  EXPECT_EQ(copy->args[0].name, "out");
  EXPECT_EQ(copy->args[0].kind, ArgKind::GlobalPointer);
}

// The translator's SPIR-V keeps kernels only (the rest is inlined into
// them): a kernel of one calls the other's.
TEST(CompileSpirv, AnObjectFromSpirvLinksWithOneFromSource) {
  CompileOptions translate_only;
  translate_only.lower = false;
  const char* calls_copy = R"(
extern kernel void copy(global int* out, global const int* in);
kernel void caller(global int* out, global const int* in) { copy(out, in); }
)";
  const std::vector<std::string> objects = {
      compile_to_library(calls_copy, "caller.cl", defaults()).bitcode,
      compile_spirv_to_library(compile_opencl(kCallee, "callee.cl", translate_only).kernel_spirv, "callee.spv")
          .bitcode};
  const CompileResult linked = link_libraries(objects, "program.cl", defaults());
  EXPECT_NE(linked.module.reflection.find_kernel("caller"), nullptr);
}

const char* kSpecConstantKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "spec"
               OpSource OpenCL_C 120
               OpDecorate %c SpecId 7
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
          %c = OpSpecConstant %uint 5
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
               OpStore %out %c Aligned 4
               OpReturn
               OpFunctionEnd
)";

TEST(CompileSpirv, SpecializationConstantsReplaceTheirDefaults) {
  const std::vector<uint32_t> words = assemble(kSpecConstantKernel);
  const std::string as_written = disassemble(compile_spirv(words, "spec.spv", defaults()).module.words);
  EXPECT_NE(as_written.find("OpConstant %uint 5"), std::string::npos) << as_written;
  const SpecConstant value{7, 42};
  const std::string specialized =
      disassemble(compile_spirv(words, "spec.spv", defaults(), std::span(&value, 1)).module.words);
  EXPECT_NE(specialized.find("OpConstant %uint 42"), std::string::npos) << specialized;
  EXPECT_EQ(specialized.find("OpConstant %uint 5\n"), std::string::npos) << specialized;
}

TEST(CompileSpirv, WhatTheReaderRefusesIsACompileError) {
  const std::vector<uint32_t> garbage = {0x07230203, 0x00010000, 0, 10, 0, 0xffffffff, 0x12345678};
  const std::string error = error_of([&] { compile_spirv(garbage, "bad.spv", defaults()); });
  EXPECT_EQ(error.rfind("bad.spv: error: ", 0), 0u) << error;
}

}  // namespace
}  // namespace vkcl
