#include <gtest/gtest.h>

#include "reflection.h"

namespace vkcl {
namespace {

ModuleReflection sample() {
  ModuleReflection r;
  r.features.buffer_device_address = true;
  r.features.shader_int64 = true;
  KernelReflection& k = r.kernels.emplace_back();
  k.name = "reduce";
  k.push_constant_size = 40;
  k.required_work_group_size = {64, 1, 1};
  k.ndrange = {{NDRangeField::GlobalOffset, 16}, {NDRangeField::WorkDim, 32}};
  k.args = {{0, "input", ArgKind::GlobalPointer, 0, 8, 0, 0},
            {1, "", ArgKind::LocalPointer, 0, 0, 3, 4},
            {2, "n", ArgKind::Scalar, 8, 4, 0, 0}};
  return r;
}

TEST(Reflection, RoundTripsThroughText) {
  ModuleReflection original = sample();
  ModuleReflection parsed = parse_reflection(serialize(original));
  EXPECT_EQ(serialize(parsed), serialize(original));
  ASSERT_EQ(parsed.kernels.size(), 1u);
  const KernelReflection& k = parsed.kernels[0];
  EXPECT_EQ(k.required_work_group_size[0], 64u);
  EXPECT_EQ(k.ndrange_offset(NDRangeField::WorkDim), 32u);
  EXPECT_FALSE(k.ndrange_offset(NDRangeField::GlobalSize).has_value());
  ASSERT_NE(k.find_arg("n"), nullptr);
  EXPECT_EQ(k.find_arg("n")->offset, 8u);
  EXPECT_EQ(k.args[1].kind, ArgKind::LocalPointer);
  EXPECT_EQ(k.args[1].spec_id, 3u);
  EXPECT_TRUE(parsed.features.shader_int64);
  EXPECT_FALSE(parsed.features.subgroup_basic);
}

TEST(Reflection, RequiredSubGroupSizeIsALineOnlyWhenGiven) {
  ModuleReflection r = sample();
  EXPECT_EQ(serialize(r).find("reqd_sub_group_size"), std::string::npos) << serialize(r);
  EXPECT_EQ(parse_reflection(serialize(r)).kernels[0].required_sub_group_size, 0u);
  r.kernels[0].required_sub_group_size = 16;
  const std::string text = serialize(r);
  EXPECT_NE(text.find("static_local_memory 0\nreqd_sub_group_size 16\n"), std::string::npos) << text;
  ModuleReflection parsed = parse_reflection(text);
  EXPECT_EQ(parsed.kernels[0].required_sub_group_size, 16u);
  EXPECT_EQ(serialize(parsed), text);
}

// -cl-denorms-are-zero: a module-wide line, written only when set, so that
// every reflection written before it existed reads as it did.
TEST(Reflection, DenormsAreZeroIsAModuleLineOnlyWhenSet) {
  ModuleReflection r = sample();
  EXPECT_EQ(serialize(r).find("denorms_are_zero"), std::string::npos) << serialize(r);
  EXPECT_FALSE(parse_reflection(serialize(r)).denorms_are_zero);
  r.denorms_are_zero = true;
  const std::string text = serialize(r);
  EXPECT_NE(text.find("feature shader_int64\ndenorms_are_zero\nkernel reduce\n"), std::string::npos) << text;
  ModuleReflection parsed = parse_reflection(text);
  EXPECT_TRUE(parsed.denorms_are_zero);
  EXPECT_EQ(serialize(parsed), text);
}

// Argument buffers: a kernel line written only when the arguments moved out
// of the push constants, so that every other reflection reads as before.
TEST(Reflection, ArgumentBufferIsAKernelLineOnlyWhenUsed) {
  ModuleReflection r = sample();
  EXPECT_EQ(serialize(r).find("argument_buffer"), std::string::npos) << serialize(r);
  EXPECT_FALSE(parse_reflection(serialize(r)).kernels[0].argument_buffer.has_value());
  r.kernels[0].argument_buffer = ArgumentBufferSlot{0, 136};
  r.kernels[0].args[0].offset = 128;  // in the argument buffer now
  const std::string text = serialize(r);
  EXPECT_NE(text.find("push_constant_size 40\nargument_buffer 0 136\nreqd_work_group_size"), std::string::npos)
      << text;
  EXPECT_NE(text.find("arg 0 input global_pointer 128 8\n"), std::string::npos) << text;
  ModuleReflection parsed = parse_reflection(text);
  ASSERT_TRUE(parsed.kernels[0].argument_buffer.has_value());
  EXPECT_EQ(parsed.kernels[0].argument_buffer->offset, 0u);
  EXPECT_EQ(parsed.kernels[0].argument_buffer->size, 136u);
  EXPECT_EQ(parsed.kernels[0].args[0].offset, 128u);
  EXPECT_EQ(serialize(parsed), text);
}

void expect_parse_error(const std::string& text, const std::string& fragment) {
  try {
    parse_reflection(text);
    FAIL() << "accepted: " << text;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Reflection, RejectsMalformedTextNamingTheLine) {
  expect_parse_error("", "empty");
  expect_parse_error("vkcl-reflection 2\n", "line 1");
  expect_parse_error("vkcl-reflection 1\nkernel k\narg 0 x pointer 0 8\nend\n", "line 3: unknown argument kind");
  expect_parse_error("vkcl-reflection 1\nkernel k\npush_constant_size -4\nend\n", "line 3");
  expect_parse_error("vkcl-reflection 1\nkernel k\n", "no 'end'");
  expect_parse_error("vkcl-reflection 1\nfeature warp_drive\n", "unknown feature");
  expect_parse_error("vkcl-reflection 1\nkernel k\narg 1 x scalar 0 4\nend\n", "in order");
  expect_parse_error("vkcl-reflection 1\nkernel k\narg 0 x local_pointer 3 0\nend\n", "element size");
  expect_parse_error("vkcl-reflection 1\nkernel k\nreqd_sub_group_size 0\nend\n", "line 3: reqd_sub_group_size must not be 0");
  expect_parse_error("vkcl-reflection 1\nkernel k\nreqd_sub_group_size 8 8\nend\n", "line 3: expected 2 fields");
  expect_parse_error("vkcl-reflection 1\nreqd_sub_group_size 8\n", "outside a kernel");
  expect_parse_error("vkcl-reflection 1\ndenorms_are_zero 1\n", "line 2: expected 1 fields");
  expect_parse_error("vkcl-reflection 1\nkernel k\ndenorms_are_zero\nend\n", "line 3: 'denorms_are_zero' inside a kernel");
  expect_parse_error("vkcl-reflection 1\nkernel k\nargument_buffer 0 0\nend\n", "line 3: argument_buffer size must not be 0");
  expect_parse_error("vkcl-reflection 1\nkernel k\nargument_buffer 0\nend\n", "line 3: expected 3 fields");
  expect_parse_error("vkcl-reflection 1\nkernel k\nargument_buffer 0 8\nargument_buffer 0 8\nend\n",
                     "line 4: a second 'argument_buffer'");
  expect_parse_error("vkcl-reflection 1\nargument_buffer 0 8\n", "outside a kernel");
  expect_parse_error("vkcl-reflection 1\nkernel k\narg_type 0 none - int\nend\n", "line 3: 'arg_type' of an argument not listed");
  expect_parse_error("vkcl-reflection 1\nkernel k\narg 0 x scalar 0 4\narg_type 0 none - \nend\n",
                     "line 4: expected at least 5 fields");
  expect_parse_error("vkcl-reflection 1\nkernel k\narg 0 x scalar 0 4\narg_type 0 writable - int\nend\n",
                     "line 4: unknown access qualifier 'writable'");
  expect_parse_error("vkcl-reflection 1\nkernel k\narg 0 x scalar 0 4\narg_type 0 none const,shared int\nend\n",
                     "line 4: unknown type qualifier 'shared'");
  expect_parse_error("vkcl-reflection 1\nkernel k\nattributes\nend\n", "line 3: expected the attributes");
}

// clGetKernelArgInfo's types and qualifiers, and CL_KERNEL_ATTRIBUTES: lines
// after a kernel's arguments, written only when known, whose last field runs
// to the end of the line (a type name or attributes may hold spaces).
TEST(Reflection, ArgumentTypesAndAttributesAreLinesOnlyWhenKnown) {
  ModuleReflection r = sample();
  EXPECT_EQ(serialize(r).find("arg_type"), std::string::npos) << serialize(r);
  EXPECT_EQ(serialize(r).find("attributes"), std::string::npos) << serialize(r);
  KernelReflection& k = r.kernels[0];
  k.args[0].type_name = "float4*";
  k.args[0].type_qualifiers = kArgTypeConst | kArgTypeRestrict;
  k.args[2].type_name = "struct pair";
  k.args[2].access = ArgAccess::ReadOnly;
  k.attributes = "reqd_work_group_size(64,1,1) vec_type_hint(uint4)";
  const std::string text = serialize(r);
  EXPECT_NE(text.find("arg 2 n scalar 8 4\n"
                      "arg_type 0 none const,restrict float4*\n"
                      "arg_type 2 read_only - struct pair\n"
                      "attributes reqd_work_group_size(64,1,1) vec_type_hint(uint4)\n"
                      "end\n"),
            std::string::npos)
      << text;
  ModuleReflection parsed = parse_reflection(text);
  const KernelReflection& p = parsed.kernels[0];
  EXPECT_EQ(p.args[0].type_name, "float4*");
  EXPECT_EQ(p.args[0].type_qualifiers, uint32_t(kArgTypeConst | kArgTypeRestrict));
  EXPECT_EQ(p.args[0].access, ArgAccess::None);
  EXPECT_EQ(p.args[1].type_name, "");
  EXPECT_EQ(p.args[2].type_name, "struct pair");
  EXPECT_EQ(p.args[2].type_qualifiers, 0u);
  EXPECT_EQ(p.args[2].access, ArgAccess::ReadOnly);
  EXPECT_EQ(p.attributes, "reqd_work_group_size(64,1,1) vec_type_hint(uint4)");
  EXPECT_EQ(serialize(parsed), text);
}

}  // namespace
}  // namespace vkcl
