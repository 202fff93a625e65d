#include "command_line.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace vkcl::run {

const std::string_view kUsage = R"(OVERVIEW: vkcl-run: run one OpenCL C kernel on a Vulkan device from the shell

USAGE: vkcl-run <kernel.cl | kernel.spv> <kernel name> --global X[,Y[,Z]] [options]
       vkcl-run --list-devices

A .cl file is compiled in process, as clc would compile it; a .spv needs the
.spv.reflection that clc writes beside it.

ND-RANGE (1 to 3 dimensions, comma-separated):
  --global X[,Y[,Z]]      Global size (required)
  --local X[,Y[,Z]]       Work-group size (default: the runtime picks one)
  --offset X[,Y[,Z]]      Global offset (default: 0)

ARGUMENTS (one --arg per kernel argument: in order, or NAME= or INDEX= first):
  --arg [NAME=|INDEX=]VALUE, where VALUE is
    TYPE:VALUE                a scalar or vector by value: int:5, float:1.5,
                              uint:0xff, float4:1,2,3,4 (or float4:0 for all lanes)
    zeros:TYPE:COUNT          a buffer of COUNT zeros
    iota:TYPE:COUNT           a buffer holding 0, 1, 2, ...
    random:TYPE:COUNT[:SEED]  a buffer of uniform random numbers: integers in
                              [0, 127], floating point in [0, 1); the same for
                              the same SEED (default 1) on every machine
    fill:TYPE:COUNT:VALUE     a buffer of COUNT copies of VALUE
    file:TYPE:PATH            a buffer holding the file's bytes (whole TYPEs)
    local:BYTES               the size of a __local pointer argument
  TYPE is char, uchar, short, ushort, int, uint, long, ulong, float or double;
  by-value arguments may be vectors of them (int2, float4, ...).

RESULTS (NAME is a buffer argument's name or index):
  --print NAME[:COUNT]    Print the buffer's first COUNT elements (default: all)
                          after the run, as "NAME[0:COUNT]: v0 v1 ..."
  --out NAME=PATH         Write the buffer's bytes to PATH after the run
  --repeat N              Run N times, each from the same buffer contents, and
                          print the GPU time of one run (median, min, max),
                          measured with timestamps

COMPILER (.cl input only):
  -cl-std=<version>       CL1.2 (default), CL2.0 or CL3.0
  -D<name>[=<value>]      Define a macro (also -D <name>)
  -I<dir>                 Add an include directory (also -I <dir>)

DEVICE:
  --device <index|name>   The device to use (default: VKCL_DEVICE, else the
                          first discrete GPU, integrated, other GPU, then CPU)
  --list-devices          List the Vulkan devices, numbered as --device counts
  --timeout <ms>          Give up on a run after this long (default 60000):
                          exit 1 at once, leaving the kernel to the driver
  --help                  Show this text

The first line printed names the device used. Exit status: 0 on success; 1
when the kernel does not compile, the device refuses it or a run fails; 2 for
a usage error, reported in one line. With VKCL_PIPELINE_STATISTICS=1, the
driver's statistics of the kernel's pipeline (registers, shared memory, ...)
follow the results, one "pipeline:" line each, where the device reports them.

EXAMPLE:
  vkcl-run shaders/examples/reduce.cl reduce --global 1048576 --local 256 \
    --arg input=iota:float:1048576 --arg partial_sums=zeros:float:4096 \
    --arg scratch=local:1024 --arg n=uint:1048576 --print partial_sums:8
)";

namespace {

std::vector<std::string_view> split(std::string_view text, char separator, size_t max_parts = SIZE_MAX) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    size_t at = text.find(separator);
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + 1);
  }
  parts.push_back(text);
  return parts;
}

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

bool is_number(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::vector<uint64_t> parse_sizes(std::string_view flag, std::string_view text) {
  std::vector<uint64_t> sizes;
  for (std::string_view part : split(text, ',')) {
    std::optional<uint64_t> value = parse_count(part);
    if (!value)
      throw UsageError{"invalid " + std::string(flag) + " '" + std::string(text) +
                       "' (expected 1 to 3 comma-separated non-negative integers)"};
    sizes.push_back(*value);
  }
  if (sizes.size() > 3)
    throw UsageError{std::string(flag) + " '" + std::string(text) + "' has " + std::to_string(sizes.size()) +
                     " dimensions; OpenCL allows 1 to 3"};
  return sizes;
}

ElementType buffer_type(std::string_view name, std::string_view given) {
  std::optional<ElementType> type = parse_type(name);
  if (!type)
    throw UsageError{"unknown type '" + std::string(name) + "' in '" + std::string(given) + "' (expected " +
                     std::string(type_names()) + ")"};
  if (type->lanes != 1)
    throw UsageError{"buffer element type '" + std::string(name) + "' in '" + std::string(given) +
                     "' is a vector; give its scalar type and count the scalars"};
  return *type;
}

uint64_t buffer_count(std::string_view text, std::string_view given) {
  std::optional<uint64_t> count = parse_count(text);
  if (!count || *count == 0)
    throw UsageError{"invalid element count '" + std::string(text) + "' in '" + std::string(given) +
                     "' (expected a positive integer)"};
  return *count;
}

std::variant<ScalarValue, BufferValue, LocalValue> parse_arg_value(std::string_view value, std::string_view given) {
  const std::vector<std::string_view> parts = split(value, ':');
  const std::string_view kind = parts[0];
  auto expect_parts = [&](size_t low, size_t high, const char* form) {
    if (parts.size() < low || parts.size() > high)
      throw UsageError{"'" + std::string(given) + "' does not match " + form};
  };
  if (kind == "local") {
    expect_parts(2, 2, "local:BYTES");
    std::optional<uint64_t> bytes = parse_count(parts[1]);
    if (!bytes || *bytes == 0)
      throw UsageError{"invalid __local size '" + std::string(parts[1]) + "' in '" + std::string(given) +
                       "' (expected a positive number of bytes)"};
    return LocalValue{*bytes};
  }
  if (kind == "file") {
    // The path is everything after the type: it may hold colons itself.
    const std::vector<std::string_view> typed = split(value, ':', 3);
    if (typed.size() != 3 || typed[2].empty()) throw UsageError{"'" + std::string(given) + "' does not match file:TYPE:PATH"};
    BufferValue buffer;
    buffer.type = buffer_type(typed[1], given);
    buffer.file = std::string(typed[2]);
    return buffer;
  }
  if (kind == "zeros" || kind == "iota" || kind == "random" || kind == "fill") {
    BufferValue buffer;
    if (kind == "zeros") expect_parts(3, 3, "zeros:TYPE:COUNT"), buffer.pattern = Pattern::Zeros;
    if (kind == "iota") expect_parts(3, 3, "iota:TYPE:COUNT"), buffer.pattern = Pattern::Iota;
    if (kind == "random") expect_parts(3, 4, "random:TYPE:COUNT[:SEED]"), buffer.pattern = Pattern::Random;
    if (kind == "fill") expect_parts(4, 4, "fill:TYPE:COUNT:VALUE"), buffer.pattern = Pattern::Fill;
    buffer.type = buffer_type(parts[1], given);
    buffer.count = buffer_count(parts[2], given);
    if (buffer.pattern == Pattern::Random && parts.size() == 4) {
      std::optional<uint64_t> seed = parse_count(parts[3]);
      if (!seed) throw UsageError{"invalid seed '" + std::string(parts[3]) + "' in '" + std::string(given) + "'"};
      buffer.seed = *seed;
    }
    if (buffer.pattern == Pattern::Fill) buffer.fill_value = parse_value(buffer.type, parts[3], given);
    return buffer;
  }
  if (std::optional<ElementType> type = parse_type(kind)) {
    // A vector's lanes are separated by commas, so a scalar value holds no colon.
    if (parts.size() != 2) throw UsageError{"'" + std::string(given) + "' does not match TYPE:VALUE"};
    return ScalarValue{*type, parse_value(*type, parts[1], given)};
  }
  throw UsageError{"unknown value '" + std::string(kind) + "' in '" + std::string(given) +
                   "' (expected TYPE:VALUE, zeros|iota|random|fill:TYPE:COUNT..., file:TYPE:PATH or local:BYTES)"};
}

ArgSpec parse_arg(std::string_view text) {
  ArgSpec spec;
  spec.given = "--arg " + std::string(text);
  std::string_view value = text;
  // NAME= or INDEX= before the first '=' and before any ':' (a file path or a
  // value may hold '=' later).
  size_t equals = text.find('=');
  if (equals != std::string_view::npos && text.substr(0, equals).find(':') == std::string_view::npos) {
    std::string_view target = text.substr(0, equals);
    if (is_number(target)) {
      std::optional<uint64_t> index = parse_count(target);
      if (!index || *index > UINT32_MAX) throw UsageError{"argument index '" + std::string(target) + "' is too large"};
      spec.index = static_cast<uint32_t>(*index);
    } else if (is_identifier(target)) {
      spec.name = std::string(target);
    } else {
      throw UsageError{"invalid argument name '" + std::string(target) + "' in '" + spec.given + "'"};
    }
    value = text.substr(equals + 1);
  }
  if (value.empty()) throw UsageError{"'" + spec.given + "' has no value"};
  spec.value = parse_arg_value(value, spec.given);
  return spec;
}

}  // namespace

CommandLine parse_command_line(int argc, char** argv) {
  CommandLine parsed;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  std::vector<std::string_view> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    // "--flag value" or "--flag=value".
    auto long_value = [&](std::string_view flag) -> std::optional<std::string_view> {
      if (arg == flag) {
        if (i + 1 >= args.size()) throw UsageError{"'" + std::string(flag) + "' needs a value"};
        return args[++i];
      }
      if (arg.size() > flag.size() && arg.starts_with(flag) && arg[flag.size()] == '=') return arg.substr(flag.size() + 1);
      return std::nullopt;
    };
    // "-Dx" or "-D x", as clc takes them.
    auto short_value = [&](std::string_view flag) -> std::string {
      if (arg.size() > flag.size()) return std::string(arg.substr(flag.size()));
      if (i + 1 >= args.size()) throw UsageError{"'" + std::string(flag) + "' needs a value"};
      return std::string(args[++i]);
    };
    if (arg == "--help" || arg == "-h") {
      parsed.help = true;
    } else if (arg == "--list-devices") {
      parsed.list_devices = true;
    } else if (auto v = long_value("--global")) {
      parsed.global = parse_sizes("--global", *v);
    } else if (auto v = long_value("--local")) {
      parsed.local = parse_sizes("--local", *v);
      for (uint64_t size : parsed.local)
        if (size == 0) throw UsageError{"--local '" + std::string(*v) + "' has a 0; work-groups have at least 1 work-item"};
    } else if (auto v = long_value("--offset")) {
      parsed.offset = parse_sizes("--offset", *v);
    } else if (auto v = long_value("--arg")) {
      parsed.args.push_back(parse_arg(*v));
    } else if (auto v = long_value("--print")) {
      PrintSpec print{"--print " + std::string(*v), std::string(*v), std::nullopt};
      if (size_t colon = v->rfind(':'); colon != std::string_view::npos) {
        std::optional<uint64_t> count = parse_count(v->substr(colon + 1));
        if (!count) throw UsageError{"invalid count in '" + print.given + "' (expected NAME[:COUNT])"};
        print.arg = std::string(v->substr(0, colon));
        print.count = *count;
      }
      if (print.arg.empty()) throw UsageError{"'" + print.given + "' names no argument"};
      parsed.prints.push_back(std::move(print));
    } else if (auto v = long_value("--out")) {
      const size_t equals = v->find('=');
      if (equals == std::string_view::npos || equals == 0 || equals + 1 == v->size())
        throw UsageError{"'--out " + std::string(*v) + "' does not match --out NAME=PATH"};
      parsed.outputs.push_back({"--out " + std::string(*v), std::string(v->substr(0, equals)), std::string(v->substr(equals + 1))});
    } else if (auto v = long_value("--repeat")) {
      std::optional<uint64_t> count = parse_count(*v);
      if (!count || *count == 0 || *count > 1'000'000)
        throw UsageError{"invalid --repeat '" + std::string(*v) + "' (expected a count from 1 to 1000000)"};
      parsed.repeat = static_cast<uint32_t>(*count);
    } else if (auto v = long_value("--device")) {
      if (v->empty()) throw UsageError{"'--device' needs an index or part of a device name"};
      parsed.device = std::string(*v);
    } else if (auto v = long_value("--timeout")) {
      std::optional<uint64_t> ms = parse_count(*v);
      if (!ms || *ms == 0) throw UsageError{"invalid --timeout '" + std::string(*v) + "' (expected milliseconds, at least 1)"};
      parsed.timeout_ms = *ms;
    } else if (arg.starts_with("-cl-std=")) {
      const std::string_view value = arg.substr(std::strlen("-cl-std="));
      if (value == "CL1.2" || value == "cl1.2") parsed.compile.cl_std = OpenCLStd::CL1_2;
      else if (value == "CL2.0" || value == "cl2.0") parsed.compile.cl_std = OpenCLStd::CL2_0;
      else if (value == "CL3.0" || value == "cl3.0") parsed.compile.cl_std = OpenCLStd::CL3_0;
      else throw UsageError{"invalid value '" + std::string(value) + "' in '" + std::string(arg) + "' (expected CL1.2, CL2.0 or CL3.0)"};
      parsed.compile_flags.emplace_back(arg);
    } else if (arg.starts_with("-D")) {
      std::string define = short_value("-D");
      if (define.empty() || define[0] == '=') throw UsageError{"macro name missing in '-D" + define + "'"};
      parsed.compile_flags.push_back("-D" + define);
      parsed.compile.defines.push_back(std::move(define));
    } else if (arg.starts_with("-I")) {
      std::string dir = short_value("-I");
      parsed.compile_flags.push_back("-I" + dir);
      parsed.compile.include_dirs.push_back(std::move(dir));
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw UsageError{"unknown option '" + std::string(arg) + "'"};
    } else {
      positional.push_back(arg);
    }
  }
  if (parsed.help || parsed.list_devices) return parsed;

  if (positional.empty()) throw UsageError{"no input file (expected <kernel.cl | kernel.spv> <kernel name>)"};
  if (positional.size() == 1) throw UsageError{"no kernel name after '" + std::string(positional[0]) + "'"};
  if (positional.size() > 2) throw UsageError{"unexpected argument '" + std::string(positional[2]) + "' after the kernel name"};
  parsed.input = std::string(positional[0]);
  parsed.kernel = std::string(positional[1]);
  if (parsed.global.empty()) throw UsageError{"no --global size"};
  if (!parsed.local.empty() && parsed.local.size() != parsed.global.size())
    throw UsageError{"--local has " + std::to_string(parsed.local.size()) + " dimension(s) and --global " +
                     std::to_string(parsed.global.size())};
  if (!parsed.offset.empty() && parsed.offset.size() != parsed.global.size())
    throw UsageError{"--offset has " + std::to_string(parsed.offset.size()) + " dimension(s) and --global " +
                     std::to_string(parsed.global.size())};
  return parsed;
}

}  // namespace vkcl::run
