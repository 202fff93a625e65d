// vkcl-run's command line, parsed without a device: everything here is
// checked from the text alone. What needs the kernel's reflection (argument
// names, kinds and sizes) is checked in main.cpp once the module is loaded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compile_error.h"
#include "compile_options.h"
#include "values.h"

namespace vkcl::run {

extern const std::string_view kUsage;

struct ScalarValue {
  ElementType type;
  std::vector<std::byte> bytes;
};

struct BufferValue {
  ElementType type;  // a scalar type
  // From a pattern, or (file set) with the file's bytes, which must be a
  // whole number of elements.
  Pattern pattern = Pattern::Zeros;
  uint64_t count = 0;
  uint64_t seed = 1;
  std::vector<std::byte> fill_value;
  std::optional<std::string> file;
};

struct LocalValue {
  uint64_t bytes = 0;
};

// One --arg: `[name=|index=]value`. Without a name or index it sets the
// argument after the one the previous --arg set (the first sets argument 0).
struct ArgSpec {
  std::string given;  // as typed, for messages
  std::optional<std::string> name;
  std::optional<uint32_t> index;
  std::variant<ScalarValue, BufferValue, LocalValue> value;
};

// --print NAME[:COUNT] and --out NAME=PATH; NAME is an argument's name or index.
struct PrintSpec {
  std::string given;
  std::string arg;
  std::optional<uint64_t> count;  // all elements when unset
};
struct OutputSpec {
  std::string given;
  std::string arg;
  std::string path;
};

struct CommandLine {
  bool help = false;
  bool list_devices = false;
  std::string input;  // .cl or .spv
  std::string kernel;
  CompileOptions compile;
  std::vector<std::string> compile_flags;  // as given, to refuse them for .spv input
  std::vector<uint64_t> global, local, offset;  // 1 to 3 entries; local and offset may be empty
  std::vector<ArgSpec> args;
  std::vector<PrintSpec> prints;
  std::vector<OutputSpec> outputs;
  uint32_t repeat = 0;  // 0: run once, untimed
  std::string device;   // empty: VKCL_DEVICE, then the default choice
  std::optional<uint64_t> timeout_ms;
};

// Throws UsageError with a one-line message.
CommandLine parse_command_line(int argc, char** argv);

}  // namespace vkcl::run
