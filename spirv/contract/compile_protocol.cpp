#include "compile_protocol.h"

#include <cstring>
#include <optional>

#include "reflection.h"

namespace vkcl::worker_protocol {
namespace {

constexpr std::string_view kRequestMagic = "vkclcreq";
constexpr std::string_view kResponseMagic = "vkclcres";

class Writer {
 public:
  template <typename Number>
  void number(Number value) {
    char bytes[sizeof(Number)];
    std::memcpy(bytes, &value, sizeof value);
    out_.append(bytes, sizeof bytes);
  }
  void boolean(bool value) { number<uint8_t>(value ? 1 : 0); }
  void string(std::string_view text) {
    number<uint64_t>(text.size());
    out_.append(text);
  }
  void strings(const std::vector<std::string>& list) {
    number<uint64_t>(list.size());
    for (const std::string& s : list) string(s);
  }

  // The whole message: magic, version, body length, body.
  std::string message(std::string_view magic) const {
    Writer header;
    header.out_.append(magic);
    header.number<uint32_t>(kVersion);
    header.number<uint64_t>(out_.size());
    return header.out_ + out_;
  }

 private:
  std::string out_;
};

class Reader {
 public:
  // Checks the header and leaves the reader at the start of the body.
  Reader(std::string_view message, std::string_view magic, std::string_view what) : in_(message), what_(what) {
    if (in_.size() < kHeaderSize) fail("it stops after " + std::to_string(in_.size()) + " bytes, inside its header");
    if (in_.substr(0, 8) != magic) fail("it does not start with '" + std::string(magic) + "'");
    in_.remove_prefix(8);
    if (const uint32_t version = number<uint32_t>(); version != kVersion)
      fail("it is protocol version " + std::to_string(version) + ", and this side speaks version " +
           std::to_string(kVersion) + " (the worker and the library that started it come from different builds)");
    const uint64_t length = number<uint64_t>();
    if (length != in_.size())
      fail("its body should be " + std::to_string(length) + " bytes and is " + std::to_string(in_.size()));
  }

  template <typename Number>
  Number number() {
    need(sizeof(Number));
    Number value;
    std::memcpy(&value, in_.data(), sizeof value);
    in_.remove_prefix(sizeof value);
    return value;
  }
  bool boolean() {
    const uint8_t value = number<uint8_t>();
    if (value > 1) fail("a bool is " + std::to_string(value));
    return value == 1;
  }
  template <typename Enum>
  Enum enumeration(Enum last) {
    const uint32_t value = number<uint32_t>();
    if (value > static_cast<uint32_t>(last))
      fail("an enumeration value is out of range (" + std::to_string(value) + ")");
    return static_cast<Enum>(value);
  }
  std::string string() {
    const uint64_t length = number<uint64_t>();
    need(length);
    std::string text(in_.substr(0, length));
    in_.remove_prefix(length);
    return text;
  }
  uint64_t count(size_t smallest_item) {
    const uint64_t n = number<uint64_t>();
    // No list claims more items than the bytes left could hold.
    if (smallest_item != 0 && n > in_.size() / smallest_item) fail("a list claims " + std::to_string(n) + " items");
    return n;
  }
  std::vector<std::string> strings() {
    std::vector<std::string> list(count(sizeof(uint64_t)));
    for (std::string& s : list) s = string();
    return list;
  }
  void expect_end() const {
    if (!in_.empty()) fail(std::to_string(in_.size()) + " bytes are left over after its body");
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw ProtocolError("malformed " + std::string(what_) + ": " + problem);
  }

 private:
  void need(uint64_t bytes) const {
    if (bytes > in_.size())
      fail("it stops short (needs " + std::to_string(bytes) + " more bytes, has " + std::to_string(in_.size()) + ")");
  }

  std::string_view in_;
  std::string_view what_;
};

// Every field of CompileOptions, in declaration order. The structured
// bindings stop compiling when a field is added or removed, so that a new
// option cannot silently stay behind in the caller's process: add it here,
// to the format in compile_protocol.h, and bump kVersion.
void write_options(Writer& out, const CompileOptions& options) {
  const auto& [cl_std, defines, include_dirs, frontend_options, optimize, memory_model, vulkan_device_scope, lower,
               denorms_are_zero, max_storage_buffers] = options;
  out.number<uint32_t>(static_cast<uint32_t>(cl_std));
  out.strings(defines);
  out.strings(include_dirs);
  out.strings(frontend_options);
  out.boolean(optimize);
  out.number<uint32_t>(static_cast<uint32_t>(memory_model));
  out.boolean(vulkan_device_scope);
  out.boolean(lower);
  out.boolean(denorms_are_zero);
  out.boolean(max_storage_buffers.has_value());
  if (max_storage_buffers) out.number<uint32_t>(*max_storage_buffers);
}

CompileOptions read_options(Reader& in) {
  CompileOptions options;
  auto& [cl_std, defines, include_dirs, frontend_options, optimize, memory_model, vulkan_device_scope, lower,
         denorms_are_zero, max_storage_buffers] = options;
  cl_std = in.enumeration(OpenCLStd::CL3_0);  // the enumerations' last values
  defines = in.strings();
  include_dirs = in.strings();
  frontend_options = in.strings();
  optimize = in.boolean();
  memory_model = in.enumeration(MemoryModel::GLSL450);
  vulkan_device_scope = in.boolean();
  lower = in.boolean();
  denorms_are_zero = in.boolean();
  max_storage_buffers = in.boolean() ? std::optional<uint32_t>(in.number<uint32_t>()) : std::nullopt;
  return options;
}

}  // namespace

std::string_view to_string(RequestKind kind) {
  switch (kind) {
    case RequestKind::Compile: return "compile";
    case RequestKind::CompileToObject: return "compile to object";
    case RequestKind::CompileIL: return "compile SPIR-V";
    case RequestKind::CompileILToObject: return "compile SPIR-V to object";
    case RequestKind::Link: return "link";
    case RequestKind::LinkToLibrary: return "link to library";
  }
  return "?";
}

std::string encode(const Request& request) {
  Writer out;
  out.number<uint32_t>(static_cast<uint32_t>(request.kind));
  out.string(request.source);
  out.string(request.file_name);
  write_options(out, request.options);
  out.number<uint64_t>(request.headers.size());
  for (const InputHeader& header : request.headers) {
    out.string(header.name);
    out.string(header.text);
  }
  out.strings(request.inputs);
  out.number<uint64_t>(request.spec_constants.size());
  for (const SpecConstant& constant : request.spec_constants) {
    out.number<uint32_t>(constant.id);
    out.number<uint64_t>(constant.value);
  }
  return out.message(kRequestMagic);
}

std::string encode(const Response& response) {
  Writer out;
  out.boolean(response.ok);
  out.string(response.log);
  out.number<uint64_t>(response.module.words.size());
  for (uint32_t word : response.module.words) out.number(word);
  // An empty module (a failure, or lower = false) has no reflection to speak of.
  out.string(response.module.words.empty() ? std::string() : serialize(response.module.reflection));
  out.string(response.bitcode);
  return out.message(kResponseMagic);
}

Request decode_request(std::string_view message) {
  Reader in(message, kRequestMagic, "compile request");
  Request request;
  request.kind = in.enumeration(kLastRequestKind);
  request.source = in.string();
  request.file_name = in.string();
  request.options = read_options(in);
  request.headers.resize(in.count(2 * sizeof(uint64_t)));
  for (InputHeader& header : request.headers) {
    header.name = in.string();
    header.text = in.string();
  }
  request.inputs = in.strings();
  request.spec_constants.resize(in.count(sizeof(uint32_t) + sizeof(uint64_t)));
  for (SpecConstant& constant : request.spec_constants) {
    constant.id = in.number<uint32_t>();
    constant.value = in.number<uint64_t>();
  }
  in.expect_end();
  return request;
}

std::optional<size_t> message_size(std::string_view start) {
  if (start.size() < kHeaderSize) return std::nullopt;
  uint64_t body = 0;
  std::memcpy(&body, start.data() + 8 + sizeof(uint32_t), sizeof body);
  // A length past any real message (a header of garbage) reads as one
  // that never ends; the reader then stops at the end of the stream.
  return body > (uint64_t(1) << 40) ? SIZE_MAX : kHeaderSize + size_t(body);
}

Response decode_response(std::string_view message) {
  Reader in(message, kResponseMagic, "compile response");
  Response response;
  response.ok = in.boolean();
  response.log = in.string();
  response.module.words.resize(in.count(sizeof(uint32_t)));
  for (uint32_t& word : response.module.words) word = in.number<uint32_t>();
  const std::string reflection = in.string();
  response.bitcode = in.string();
  in.expect_end();
  if (!reflection.empty()) {
    try {
      response.module.reflection = parse_reflection(reflection);
    } catch (const std::exception& e) {
      in.fail(std::string("its reflection: ") + e.what());
    }
  }
  return response;
}

}  // namespace vkcl::worker_protocol
