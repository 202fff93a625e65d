// The compile worker's protocol (spirv/contract/compile_protocol.h): every
// field of a request (of every kind) and of a response survives encode and
// decode, and what is not a whole message of this version is refused with a
// ProtocolError.
#include <gtest/gtest.h>

#include <cstring>

#include "compile_protocol.h"

namespace vkcl::worker_protocol {
namespace {

// Every field away from its default, so that one the encoding forgot comes
// back different. (A field added to CompileOptions stops compile_protocol.cpp
// compiling until the encoding has it; set it here too.)
Request full_request() {
  Request request;
  request.source = std::string("kernel void k(global int* p) { p[0] = 1; }\n") + '\0' + "after a NUL";
  request.file_name = "dir/kernel.cl";
  CompileOptions& o = request.options;
  o.cl_std = OpenCLStd::CL3_0;
  o.defines = {"A", "B=2", ""};
  o.include_dirs = {"/usr/include/x", "rel dir"};
  o.frontend_options = {"-cl-mad-enable", "-w"};
  o.optimize = false;
  o.memory_model = MemoryModel::GLSL450;
  o.vulkan_device_scope = false;
  o.lower = false;
  o.denorms_are_zero = true;
  o.max_storage_buffers = 7;
  request.headers = {{"util.h", "#define UTIL 1\n"}, {"inc/empty.h", ""}};
  request.kind = RequestKind::CompileILToObject;
  request.inputs = {std::string("\x03\x02\x23\x07", 4) + std::string(1, '\0'), "", "bitcode"};
  request.spec_constants = {{1, 0xffffffffffffffffull}, {7, 0}};
  return request;
}

void expect_same(const Request& a, const Request& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.file_name, b.file_name);
  EXPECT_EQ(a.options, b.options);
  EXPECT_EQ(a.headers, b.headers);
  EXPECT_EQ(a.inputs, b.inputs);
  EXPECT_EQ(a.spec_constants, b.spec_constants);
}

TEST(WorkerProtocol, EveryRequestFieldRoundTrips) {
  const Request request = full_request();
  expect_same(decode_request(encode(request)), request);
}

// Each kind of request (compile, compile to an object, SPIR-V, link, ...)
// comes back the kind it was, with the fields that kind reads.
TEST(WorkerProtocol, EveryRequestKindRoundTrips) {
  for (uint32_t k = 0; k <= static_cast<uint32_t>(kLastRequestKind); ++k) {
    Request request = full_request();
    request.kind = static_cast<RequestKind>(k);
    const Request back = decode_request(encode(request));
    EXPECT_EQ(back.kind, request.kind) << to_string(request.kind);
    expect_same(back, request);
  }
  EXPECT_EQ(to_string(RequestKind::Link), "link");
}

TEST(WorkerProtocol, DefaultRequestRoundTrips) {
  const Request request;
  expect_same(decode_request(encode(request)), request);
  // An unset max_storage_buffers stays unset, not 0.
  EXPECT_FALSE(decode_request(encode(request)).options.max_storage_buffers.has_value());
}

TEST(WorkerProtocol, EachOptionAloneChangesTheMessage) {
  // A field that the encoding skipped would leave the bytes as they are.
  const std::string defaults = encode(Request{});
  const Request full = full_request();
  auto with = [&](auto set) {
    Request r;
    set(r.options);
    return encode(r);
  };
  EXPECT_NE(with([&](CompileOptions& o) { o.cl_std = full.options.cl_std; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.defines = full.options.defines; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.include_dirs = full.options.include_dirs; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.frontend_options = full.options.frontend_options; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.optimize = full.options.optimize; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.memory_model = full.options.memory_model; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.vulkan_device_scope = full.options.vulkan_device_scope; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.lower = full.options.lower; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.denorms_are_zero = full.options.denorms_are_zero; }), defaults);
  EXPECT_NE(with([&](CompileOptions& o) { o.max_storage_buffers = 0; }), defaults);
}

Response full_response() {
  Response response;
  response.ok = true;
  response.log = "k.cl:1:2: warning: something\n";
  response.module.words = {0x07230203, 0x00010400, 0, 12, 0, 0xdeadbeef};
  ModuleReflection& r = response.module.reflection;
  r.features.buffer_device_address = true;
  r.features.shader_int64 = true;
  r.denorms_are_zero = true;
  KernelReflection& k = r.kernels.emplace_back();
  k.name = "k";
  k.push_constant_size = 16;
  k.required_work_group_size = {64, 1, 1};
  k.static_local_memory = 256;
  k.required_sub_group_size = 32;
  k.ndrange = {{NDRangeField::GlobalOffset, 8}};
  k.args = {{0, "p", ArgKind::GlobalPointer, 0, 8, 0, 0, std::nullopt},
            {1, "", ArgKind::LocalPointer, 0, 0, 3, 4, std::nullopt}};
  k.args[0].type_name = "float4*";
  k.args[0].type_qualifiers = kArgTypeConst | kArgTypeVolatile;
  k.attributes = "reqd_work_group_size(64,1,1) vec_type_hint(float4)";
  response.bitcode = std::string("BC\xc0\xde", 4) + std::string(3, '\0') + "rest";
  return response;
}

TEST(WorkerProtocol, EveryResponseFieldRoundTrips) {
  const Response response = full_response();
  const Response back = decode_response(encode(response));
  EXPECT_TRUE(back.ok);
  EXPECT_EQ(back.log, response.log);
  EXPECT_EQ(back.module.words, response.module.words);
  EXPECT_EQ(serialize(back.module.reflection), serialize(response.module.reflection));
  EXPECT_EQ(back.module.reflection.kernels[0].args[0].type_name, "float4*");
  EXPECT_EQ(back.module.reflection.kernels[0].attributes, response.module.reflection.kernels[0].attributes);
  EXPECT_EQ(back.bitcode, response.bitcode);
}

// A compiled object or library comes back as bitcode alone, with no module.
TEST(WorkerProtocol, AnObjectResponseRoundTrips) {
  Response object;
  object.ok = true;
  object.bitcode = std::string("BC\xc0\xde", 4) + std::string(1000, '\x7f');
  const Response back = decode_response(encode(object));
  EXPECT_TRUE(back.ok);
  EXPECT_EQ(back.bitcode, object.bitcode);
  EXPECT_TRUE(back.module.words.empty());
}

TEST(WorkerProtocol, EveryRequestTruncationIsRefused) {
  const std::string whole = encode(full_request());
  for (size_t length = 0; length < whole.size(); ++length)
    EXPECT_THROW(decode_request(std::string_view(whole).substr(0, length)), ProtocolError) << length;
}

TEST(WorkerProtocol, AnOutOfRangeRequestKindIsRefused) {
  std::string message = encode(Request{});
  const uint32_t bad = static_cast<uint32_t>(kLastRequestKind) + 1;
  std::memcpy(message.data() + 8 + 4 + 8, &bad, sizeof bad);  // the body's first field
  try {
    decode_request(message);
    ADD_FAILURE() << "accepted request kind " << bad;
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
  }
}

TEST(WorkerProtocol, AFailureRoundTrips) {
  Response failure;
  failure.log = "bad.cl:1:40: error: use of undeclared identifier 'x'\n";
  const Response back = decode_response(encode(failure));
  EXPECT_FALSE(back.ok);
  EXPECT_EQ(back.log, failure.log);
  EXPECT_TRUE(back.module.words.empty());
}

void expect_refused(std::string_view message, std::string_view because) {
  try {
    decode_response(message);
    ADD_FAILURE() << "accepted a malformed message";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find(because), std::string::npos) << e.what();
  }
}

TEST(WorkerProtocol, EveryTruncationIsRefused) {
  const std::string whole = encode(full_response());
  for (size_t length = 0; length < whole.size(); ++length)
    EXPECT_THROW(decode_response(std::string_view(whole).substr(0, length)), ProtocolError) << length;
}

TEST(WorkerProtocol, AnotherVersionIsRefusedByName) {
  std::string message = encode(full_response());
  const uint32_t other = kVersion + 1;
  std::memcpy(message.data() + 8, &other, sizeof other);
  expect_refused(message, "protocol version " + std::to_string(other));
}

TEST(WorkerProtocol, ARequestIsNoResponse) {
  expect_refused(encode(full_request()), "does not start with");
}

TEST(WorkerProtocol, TrailingBytesAreRefused) { expect_refused(encode(full_response()) + "x", "body should be"); }

TEST(WorkerProtocol, AnOutOfRangeEnumerationIsRefused) {
  std::string message = encode(Request{});
  // The body starts with the kind, two empty strings (source, file name), then cl_std.
  const size_t cl_std_offset = 8 + 4 + 8 + 4 + 8 + 8;
  const uint32_t bad = 9;
  std::memcpy(message.data() + cl_std_offset, &bad, sizeof bad);
  try {
    decode_request(message);
    ADD_FAILURE() << "accepted cl_std 9";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
  }
}

TEST(WorkerProtocol, ABadReflectionIsRefused) {
  Response response = full_response();
  std::string message = encode(response);
  const size_t at = message.find("vkcl-reflection 1");
  ASSERT_NE(at, std::string::npos);
  message[at] = 'X';
  expect_refused(message, "its reflection");
}

}  // namespace
}  // namespace vkcl::worker_protocol
