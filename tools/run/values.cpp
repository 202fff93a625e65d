#include "values.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace vkcl::run {
namespace {

struct ScalarName {
  std::string_view name;
  Numeric numeric;
  uint32_t size;
};
constexpr std::array<ScalarName, 10> kScalars{{
    {"char", Numeric::Signed, 1},
    {"uchar", Numeric::Unsigned, 1},
    {"short", Numeric::Signed, 2},
    {"ushort", Numeric::Unsigned, 2},
    {"int", Numeric::Signed, 4},
    {"uint", Numeric::Unsigned, 4},
    {"long", Numeric::Signed, 8},
    {"ulong", Numeric::Unsigned, 8},
    {"float", Numeric::Float, 4},
    {"double", Numeric::Float, 8},
}};

template <typename T>
void append(std::vector<std::byte>& out, T value) {
  const auto* bytes = reinterpret_cast<const std::byte*>(&value);
  out.insert(out.end(), bytes, bytes + sizeof value);
}

// Stores `value` (already range-checked) in `size` little-endian bytes, the
// byte order of every Vulkan device vkcl runs on and of the host.
void append_integer(std::vector<std::byte>& out, uint64_t value, uint32_t size) {
  for (uint32_t i = 0; i < size; ++i) out.push_back(static_cast<std::byte>(value >> (8 * i)));
}

std::vector<std::byte> parse_scalar(const ElementType& type, std::string_view text, std::string_view context) {
  auto fail = [&](const std::string& why) -> UsageError {
    return UsageError{"invalid " + std::string(type.name) + " value '" + std::string(text) + "' in '" + std::string(context) +
                      "': " + why};
  };
  std::vector<std::byte> out;
  if (type.numeric == Numeric::Float) {
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) throw fail("not a number");
    if (type.scalar_size == 4) {
      if (std::isfinite(value) && std::fabs(value) > std::numeric_limits<float>::max()) throw fail("out of range for float");
      append(out, static_cast<float>(value));
    } else {
      append(out, value);
    }
    return out;
  }
  const bool negative = !text.empty() && text[0] == '-';
  std::string_view digits = text.substr(negative || (!text.empty() && text[0] == '+') ? 1 : 0);
  if (negative && type.numeric == Numeric::Unsigned) throw fail("negative, and the type is unsigned");
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) base = 16, digits.remove_prefix(2);
  uint64_t magnitude = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (digits.empty() || end != digits.data() + digits.size() || (error != std::errc() && error != std::errc::result_out_of_range))
    throw fail("not an integer");
  const uint32_t bits = 8 * type.scalar_size;
  const uint64_t unsigned_max = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t limit = type.numeric == Numeric::Unsigned ? unsigned_max : (uint64_t{1} << (bits - 1)) - (negative ? 0 : 1);
  if (error == std::errc::result_out_of_range || magnitude > limit) throw fail("out of range");
  append_integer(out, negative ? uint64_t{0} - magnitude : magnitude, type.scalar_size);
  return out;
}

}  // namespace

std::optional<ElementType> parse_type(std::string_view name) {
  const size_t digits_at = std::min(name.find_first_of("0123456789"), name.size());
  const std::string_view base = name.substr(0, digits_at), suffix = name.substr(digits_at);
  uint32_t lanes = 1;
  if (suffix == "2" || suffix == "3" || suffix == "4" || suffix == "8" || suffix == "16")
    lanes = static_cast<uint32_t>(std::stoul(std::string(suffix)));
  else if (!suffix.empty())
    return std::nullopt;
  for (const ScalarName& s : kScalars)
    if (s.name == base) return ElementType{std::string(name), s.numeric, s.size, lanes};
  return std::nullopt;
}

std::string_view type_names() { return "char, uchar, short, ushort, int, uint, long, ulong, float, double"; }

std::vector<std::byte> parse_value(const ElementType& type, std::string_view text, std::string_view context) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (parts.size() != 1 && parts.size() != type.lanes)
    throw UsageError{"'" + std::string(context) + "' gives " + std::to_string(parts.size()) + " values for " + type.name +
                     ", which takes " + std::to_string(type.lanes) + " (or one for every lane)"};
  ElementType scalar = type;
  scalar.lanes = 1;
  std::vector<std::byte> out;
  for (uint32_t lane = 0; lane < type.lanes; ++lane) {
    std::vector<std::byte> one = parse_scalar(scalar, parts[parts.size() == 1 ? 0 : lane], context);
    out.insert(out.end(), one.begin(), one.end());
  }
  out.resize(type.size());  // a 3-vector's fourth lane is padding
  return out;
}

std::vector<std::byte> generate(Pattern pattern, const ElementType& type, uint64_t count, uint64_t seed,
                                std::span<const std::byte> fill_value) {
  std::vector<std::byte> out;
  out.reserve(count * type.size());
  // std::uniform_*_distribution differ between standard libraries; the
  // engine's raw output, scaled by hand, gives the same numbers everywhere.
  std::mt19937_64 engine(seed);
  for (uint64_t i = 0; i < count; ++i) {
    switch (pattern) {
      case Pattern::Zeros:
        out.resize(out.size() + type.size(), std::byte{0});
        break;
      case Pattern::Fill:
        out.insert(out.end(), fill_value.begin(), fill_value.end());
        break;
      case Pattern::Iota:
        if (type.numeric != Numeric::Float) append_integer(out, i, type.scalar_size);
        else if (type.scalar_size == 4) append(out, static_cast<float>(i));
        else append(out, static_cast<double>(i));
        break;
      case Pattern::Random: {
        const uint64_t bits = engine();
        if (type.numeric != Numeric::Float) append_integer(out, bits >> 57, type.scalar_size);
        else if (type.scalar_size == 4) append(out, static_cast<float>(bits >> 40) * 0x1p-24f);
        else append(out, static_cast<double>(bits >> 11) * 0x1p-53);
        break;
      }
    }
  }
  return out;
}

std::string format_elements(const ElementType& type, std::span<const std::byte> bytes, uint64_t count) {
  std::string text;
  for (uint64_t i = 0; i < count; ++i) {
    const std::byte* p = bytes.data() + i * type.size();
    if (i) text += ' ';
    char buffer[64];
    char* end = buffer;
    if (type.numeric == Numeric::Float && type.scalar_size == 4) {
      float v;
      std::memcpy(&v, p, 4);
      end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
    } else if (type.numeric == Numeric::Float) {
      double v;
      std::memcpy(&v, p, 8);
      end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
    } else {
      uint64_t raw = 0;
      for (uint32_t b = 0; b < type.scalar_size; ++b) raw |= uint64_t(std::to_integer<uint8_t>(p[b])) << (8 * b);
      const uint32_t bits = 8 * type.scalar_size;
      if (type.numeric == Numeric::Signed && bits < 64 && (raw >> (bits - 1)) & 1) raw |= ~uint64_t{0} << bits;
      end = type.numeric == Numeric::Signed ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<int64_t>(raw)).ptr
                                            : std::to_chars(buffer, buffer + sizeof buffer, raw).ptr;
    }
    text.append(buffer, end);
  }
  return text;
}

std::optional<uint64_t> parse_count(std::string_view text) {
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) base = 16, text.remove_prefix(2);
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace vkcl::run
