// vkcl-run's values: OpenCL C scalar and vector types by name, scalar values
// parsed into the bytes a kernel argument takes, buffer contents generated
// from patterns, and buffer elements printed back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vkcl::run {

// Command-line mistakes: one line on stderr, exit status 2.
struct UsageError {
  std::string message;
};

enum class Numeric { Signed, Unsigned, Float };

// An OpenCL C scalar ("uint") or vector ("float4") type. A 3-vector takes the
// space of a 4-vector, as in OpenCL C.
struct ElementType {
  std::string name;
  Numeric numeric = Numeric::Unsigned;
  uint32_t scalar_size = 4;
  uint32_t lanes = 1;

  uint32_t size() const { return scalar_size * (lanes == 3 ? 4 : lanes); }
};

// char, uchar, short, ushort, int, uint, long, ulong, float, double, each
// optionally followed by 2, 3, 4, 8 or 16; nullopt for anything else.
std::optional<ElementType> parse_type(std::string_view name);
// The scalar type names, for messages and --help.
std::string_view type_names();

// The bytes of `text` as a value of `type`: one number, or for a vector
// either one number for every lane or one per lane separated by commas.
// Integers may be decimal or 0x hexadecimal and must fit the type. Throws
// UsageError naming `context` (the --arg as given).
std::vector<std::byte> parse_value(const ElementType& type, std::string_view text, std::string_view context);

enum class Pattern { Zeros, Iota, Random, Fill };

// `count` elements of the scalar `type`: zeros; 0, 1, 2, ...; uniform random
// (integers in [0, 127], which every integer type holds, floating point in
// [0, 1)) from a 64-bit Mersenne Twister seeded with `seed`, the same on
// every machine; or copies of `fill_value`.
std::vector<std::byte> generate(Pattern pattern, const ElementType& type, uint64_t count, uint64_t seed,
                                std::span<const std::byte> fill_value);

// Elements [0, count) of `bytes` read as `type`, separated by spaces;
// floating point in the shortest form that reads back exactly.
std::string format_elements(const ElementType& type, std::span<const std::byte> bytes, uint64_t count);

// A non-negative integer (decimal or 0x hexadecimal) that fits in 64 bits.
std::optional<uint64_t> parse_count(std::string_view text);

}  // namespace vkcl::run
