#include "program_binary.h"

#include <cstring>
#include <exception>
#include <string_view>

namespace vkcl::opencl {
namespace {

constexpr char kMagic[8] = {'v', 'k', 'c', 'l', 'P', 'R', 'G', '2'};

class Writer {
 public:
  explicit Writer(std::vector<unsigned char>& out) : out_(out) {}
  template <typename Number>
  void number(Number value) {
    const auto* p = reinterpret_cast<const unsigned char*>(&value);
    out_.insert(out_.end(), p, p + sizeof value);
  }
  void field(const void* data, size_t size) {
    number<uint64_t>(size);
    const auto* p = static_cast<const unsigned char*>(data);
    out_.insert(out_.end(), p, p + size);
  }
  void field(std::string_view text) { field(text.data(), text.size()); }

 private:
  std::vector<unsigned char>& out_;
};

// Reads fields until one is missing; ok() says whether all were there.
class Reader {
 public:
  explicit Reader(std::span<const unsigned char> bytes) : in_(bytes) {}
  template <typename Number>
  Number number() {
    Number value{};
    if (in_.size() < sizeof value) {
      fail();
      return value;
    }
    std::memcpy(&value, in_.data(), sizeof value);
    in_ = in_.subspan(sizeof value);
    return value;
  }
  std::string field() {
    const uint64_t n = number<uint64_t>();
    if (n > in_.size()) {
      fail();
      return {};
    }
    std::string text(reinterpret_cast<const char*>(in_.data()), n);
    in_ = in_.subspan(n);
    return text;
  }
  // A count of items of at least `smallest` bytes each that the rest could hold.
  uint64_t count(size_t smallest) {
    const uint64_t n = number<uint64_t>();
    if (n > in_.size() / smallest) {
      fail();
      return 0;
    }
    return n;
  }
  bool ok() const { return ok_ && in_.empty(); }

 private:
  void fail() {
    ok_ = false;
    in_ = {};
  }
  std::span<const unsigned char> in_;
  bool ok_ = true;
};

bool known_type(cl_program_binary_type type) {
  return type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE || type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
         type == CL_PROGRAM_BINARY_TYPE_LIBRARY;
}

}  // namespace

std::vector<unsigned char> encode_binary(const ProgramBinary& binary) {
  std::vector<unsigned char> out(kMagic, kMagic + sizeof kMagic);
  Writer w(out);
  w.number<uint32_t>(static_cast<uint32_t>(binary.type));
  w.field(binary.options);
  const ProgramInput& input = binary.input;
  w.number<uint32_t>(static_cast<uint32_t>(input.kind));
  w.field(input.source);
  w.number<uint64_t>(input.objects.size());
  for (const std::string& object : input.objects) w.field(object);
  w.field(input.il.data(), input.il.size() * sizeof(uint32_t));
  w.number<uint64_t>(input.spec_constants.size());
  for (const SpecConstant& c : input.spec_constants) {
    w.number<uint32_t>(c.id);
    w.number<uint64_t>(c.value);
  }
  w.field(binary.object);
  w.field(binary.module.words.data(), binary.module.words.size() * sizeof(uint32_t));
  w.field(binary.module.words.empty() ? std::string() : serialize(binary.module.reflection));
  return out;
}

std::optional<ProgramBinary> decode_binary(std::span<const unsigned char> bytes) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  Reader r(bytes.subspan(sizeof kMagic));
  ProgramBinary b;
  b.type = r.number<uint32_t>();
  b.options = r.field();
  ProgramInput& input = b.input;
  const uint32_t kind = r.number<uint32_t>();
  input.kind = static_cast<ProgramInput::Kind>(kind);
  input.source = r.field();
  input.objects.resize(r.count(sizeof(uint64_t)));
  for (std::string& object : input.objects) object = r.field();
  const std::string il = r.field();
  input.spec_constants.resize(r.count(sizeof(uint32_t) + sizeof(uint64_t)));
  for (SpecConstant& c : input.spec_constants) {
    c.id = r.number<uint32_t>();
    c.value = r.number<uint64_t>();
  }
  b.object = r.field();
  const std::string words = r.field();
  const std::string reflection = r.field();
  if (!r.ok() || !known_type(b.type) || kind > static_cast<uint32_t>(ProgramInput::Kind::IL) ||
      il.size() % sizeof(uint32_t) != 0 || words.size() % sizeof(uint32_t) != 0)
    return std::nullopt;
  input.il.resize(il.size() / sizeof(uint32_t));
  std::memcpy(input.il.data(), il.data(), il.size());
  // What each type needs to be of use.
  if (b.type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && (words.empty() || reflection.empty())) return std::nullopt;
  if (b.type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE && b.object.empty()) return std::nullopt;
  b.module.words.resize(words.size() / sizeof(uint32_t));
  std::memcpy(b.module.words.data(), words.data(), words.size());
  if (!reflection.empty()) {
    try {
      b.module.reflection = parse_reflection(reflection);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return b;
}

}  // namespace vkcl::opencl
