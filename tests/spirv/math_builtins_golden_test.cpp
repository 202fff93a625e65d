// Golden test of builtins/LOWERING.md, the table of where each OpenCL C
// math, integer, common, geometric and relational builtin is lowered: every
// function of every row is called for each of its element types and vector
// widths, compiled in process (clang, the builtin library, the translator,
// the lowering, SPIRV-Tools' optimizer, spirv-val for Vulkan 1.1/1.2/1.3),
// and
//   - a row whose status is "done" must compile, and when it is lowered by
//     the pass or the translator, the module must contain the instruction(s)
//     the row names in bold;
//   - a row whose status is "not yet" must fail with the compile error that
//     names the builtin (never invalid SPIR-V, never a crash).
// The test also checks that the table names every function the test knows a
// signature for, and the other way round. It reads the tables of those five
// sections only: the vector load and store functions have tests of their own
// (tests/host/language_test.cpp, tests/host/half_storage_test.cpp).
//
// Vector widths: 2, 3 and 4, and 8 and 16 when a probe kernel using an
// 8-wide vector validates (Vulkan has no Vector16 capability; vkcl must split
// such vectors; the test says when it does not yet, and skips them), for
// every integer type, and float8 of the floating-point functions (their
// 16-wide overloads are two 8-wide calls, double's the same code as
// float's, and compile time matters).
//
// One module per function (all its types and widths); when it fails, each
// type and width is compiled alone so that the message names the case.
//
// FloatSubnormalsAreTakenApartOnTheirBits checks what makes the float
// functions right on devices that flush subnormals (see there).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "barrier_inspection.h"
#include "compiler.h"

namespace vkcl::testing {
namespace {

// ---------------------------------------------------------------------------
// The table

struct Row {
  std::vector<std::string> functions;
  std::vector<std::string> types;         // element types, expanded
  std::string lowering;                   // the "lowered to" column
  std::vector<std::string> instructions;  // the names in bold there
  bool done = false;
  int line = 0;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// The types column: float, double, signed, unsigned, all (integers), int,
// uint, N-bit (the signed and unsigned integer types of that width).
std::vector<std::string> expand_types(const std::string& column) {
  static const std::map<std::string, std::vector<std::string>> kWords = {
      {"float", {"float"}},
      {"double", {"double"}},
      {"half", {"half"}},
      {"signed", {"char", "short", "int", "long"}},
      {"unsigned", {"uchar", "ushort", "uint", "ulong"}},
      {"all", {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"}},
      {"int", {"int"}},
      {"uint", {"uint"}},
      {"8-bit", {"char", "uchar"}},
      {"16-bit", {"short", "ushort"}},
      {"32-bit", {"int", "uint"}},
      {"64-bit", {"long", "ulong"}},
  };
  std::vector<std::string> types;
  for (const std::string& word : split(column, ',')) {
    auto it = kWords.find(word);
    if (it == kWords.end()) throw std::runtime_error("LOWERING.md: unknown type word '" + word + "'");
    types.insert(types.end(), it->second.begin(), it->second.end());
  }
  return types;
}

std::vector<Row> read_table() {
  std::ifstream in(VKCL_LOWERING_TABLE);
  if (!in) throw std::runtime_error("cannot read " VKCL_LOWERING_TABLE);
  std::vector<Row> rows;
  std::string line;
  int number = 0;
  const std::regex bold(R"(\*\*([A-Za-z0-9_]+)\*\*)");
  bool in_section = false;  // under the heading of a section this test reads
  while (std::getline(in, line)) {
    ++number;
    if (line.starts_with("## ")) {
      in_section = false;
      for (const char* heading : {"## Math", "## Integer", "## Common", "## Geometric", "## Relational"})
        if (line.starts_with(heading)) in_section = true;
    }
    if (!in_section) continue;
    if (!line.starts_with("| ") || line.starts_with("| function") || line.starts_with("| ---")) continue;
    std::vector<std::string> cells;
    std::string cell;
    // Cells are separated by " | "; "\|" inside a cell is a literal bar.
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    if (cells.size() != 5) throw std::runtime_error("LOWERING.md:" + std::to_string(number) + ": not 5 columns");
    for (std::string& c : cells) {
      c.erase(0, c.find_first_not_of(' '));
      c.erase(c.find_last_not_of(' ') + 1);
    }
    Row row;
    row.functions = split(cells[0], ',');
    row.types = expand_types(cells[1]);
    row.lowering = cells[2];
    if (!row.lowering.starts_with("builtins")) {
      for (auto it = std::sregex_iterator(cells[2].begin(), cells[2].end(), bold); it != std::sregex_iterator(); ++it)
        row.instructions.push_back((*it)[1]);
    }
    if (cells[4] != "done" && cells[4] != "not yet")
      throw std::runtime_error("LOWERING.md:" + std::to_string(number) + ": status must be 'done' or 'not yet'");
    row.done = cells[4] == "done";
    row.line = number;
    rows.push_back(std::move(row));
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Signatures: what a call looks like for element type T and width N.
//
//   g  the generic type (T, or T with N components)   i  int with N components
//   s  the scalar T                                    u  the unsigned type of T's size with N components
//   c  the signed integer type of T's size, N comps    p  pointer to g      q  pointer to i
//   h  upsample's unsigned low half
// The letter before ':' is the result, those after it the arguments.

const std::map<std::string, std::string>& signatures() {
  static const std::map<std::string, std::string> kSignatures = [] {
    std::map<std::string, std::string> s;
    for (const char* f : {"fabs", "ceil", "floor", "trunc", "rint", "round", "sqrt", "rsqrt", "logb", "cbrt", "exp",
                          "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "sinpi",
                          "cospi", "tanpi", "asin", "acos", "atan", "asinpi", "acospi", "atanpi", "sinh", "cosh",
                          "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "tgamma", "lgamma", "native_sqrt",
                          "native_rsqrt", "native_exp", "native_exp2", "native_exp10", "native_log", "native_log2",
                          "native_log10", "native_sin", "native_cos", "native_tan", "native_recip", "half_sqrt",
                          "half_rsqrt", "half_exp", "half_exp2", "half_exp10", "half_recip", "half_sin", "half_cos",
                          "half_tan", "half_log", "half_log2", "half_log10", "degrees", "radians", "sign", "clz",
                          "ctz", "popcount", "normalize"})
      s[f] = "g:g";
    for (const char* f : {"fmin", "fmax", "copysign", "fdim", "nextafter", "maxmag", "minmag", "fmod", "remainder",
                          "hypot", "atan2", "atan2pi", "pow", "powr", "native_divide", "native_powr", "half_divide",
                          "half_powr", "step", "max", "min", "add_sat", "sub_sat", "hadd", "rhadd", "rotate",
                          "mul_hi", "mul24", "cross"})
      s[f] = "g:gg";
    for (const char* f : {"mad", "fma", "mix", "smoothstep", "clamp", "mad_hi", "mad_sat", "mad24", "bitselect"})
      s[f] = "g:ggg";
    s["fract"] = s["modf"] = s["sincos"] = "g:gp";
    s["frexp"] = s["lgamma_r"] = "g:gq";
    s["remquo"] = "g:ggq";
    s["ldexp"] = s["pown"] = s["rootn"] = "g:gi";
    s["nan"] = "g:u";
    s["ilogb"] = "i:g";
    s["abs"] = "u:g";
    s["abs_diff"] = "u:gg";
    s["upsample"] = "w:gh";
    s["dot"] = s["distance"] = s["fast_distance"] = "s:gg";
    s["length"] = s["fast_length"] = "s:g";
    s["fast_normalize"] = "g:g";
    for (const char* f : {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
                          "islessgreater", "isordered", "isunordered"})
      s[f] = "c:gg";
    for (const char* f : {"isnan", "isinf", "isfinite", "isnormal", "signbit"}) s[f] = "c:g";
    s["any"] = s["all"] = "s:g";
    s["select"] = "g:ggc";
    return s;
  }();
  return kSignatures;
}

bool is_float(const std::string& t) { return t == "float" || t == "double" || t == "half"; }
std::string unsigned_of(const std::string& t) {
  if (is_float(t)) return t == "double" ? "ulong" : t == "half" ? "ushort" : "uint";
  return t[0] == 'u' ? t : "u" + t;
}
std::string signed_of(const std::string& t) {
  if (is_float(t)) return t == "double" ? "long" : t == "half" ? "short" : "int";
  return t[0] == 'u' ? t.substr(1) : t;
}
std::string with_width(const std::string& scalar, int width) {
  return width == 1 ? scalar : scalar + std::to_string(width);
}

// The widths a function exists for (before the 8/16 probe filters them).
std::vector<int> widths_of(const std::string& function) {
  static const std::set<std::string> kGeometric = {"dot", "length", "distance", "normalize", "fast_length",
                                                   "fast_distance", "fast_normalize"};
  if (function == "cross") return {3, 4};
  if (kGeometric.count(function)) return {1, 2, 3, 4};
  if (function == "any" || function == "all") return {1, 2, 3, 4, 8, 16};
  return {1, 2, 3, 4, 8, 16};
}

// A kernel that calls `function` once for element type `type` and width `width`.
std::string kernel_for(const std::string& function, const std::string& type, int width, int index) {
  const std::string& signature = signatures().at(function);
  const char result = signature[0];
  const std::string arguments = signature.substr(2);
  auto type_of = [&](char letter) -> std::string {
    switch (letter) {
      case 'g': return with_width(type, width);
      case 's': return type;
      case 'i': return with_width("int", width);
      case 'u': return with_width(unsigned_of(type), width);
      case 'c': return with_width(signed_of(type), width);
      case 'h': return with_width(unsigned_of(type), width);
      default: throw std::runtime_error("bad signature letter");
    }
  };
  std::ostringstream k;
  k << "__kernel void k" << index << "(__global const uchar* in, __global uchar* out) {\n";
  std::string call = function + "(";
  int n = 0;
  for (char letter : arguments) {
    if (n) call += ", ";
    if (letter == 'p' || letter == 'q') {
      // Through a private variable and, in a second call, a __global pointer.
      const std::string pointee = letter == 'p' ? type_of('g') : type_of('i');
      k << "  " << pointee << " o" << n << ";\n";
      call += "&o" + std::to_string(n);
    } else {
      const std::string t = type_of(letter);
      k << "  const " << t << " a" << n << " = *(__global const " << t << "*)(in + " << 128 * n << ");\n";
      call += "a" + std::to_string(n);
    }
    ++n;
  }
  call += ")";
  k << "  *(__global __typeof__(" << call << ")*)out = " << call << ";\n";
  // The same call with every pointer argument a __global one.
  if (arguments.find_first_of("pq") != std::string::npos) {
    std::string global_call = function + "(";
    for (size_t a = 0; a < arguments.size(); ++a) {
      if (a) global_call += ", ";
      const char letter = arguments[a];
      if (letter == 'p' || letter == 'q')
        global_call += "(__global " + (letter == 'p' ? type_of('g') : type_of('i')) + "*)(out + 256)";
      else
        global_call += "a" + std::to_string(a);
    }
    global_call += ")";
    k << "  *(__global __typeof__(" << global_call << ")*)(out + 128) = " << global_call << ";\n";
    for (size_t a = 0; a < arguments.size(); ++a)
      if (arguments[a] == 'p' || arguments[a] == 'q')
        k << "  *(__global " << (arguments[a] == 'p' ? type_of('g') : type_of('i')) << "*)(out + " << 384 + 128 * a
          << ") = o" << a << ";\n";
  }
  (void)result;
  k << "}\n";
  return k.str();
}

struct Case {
  std::string type;
  int width;
};

std::string describe(const std::string& function, const Case& c) {
  return function + " on " + with_width(c.type, c.width);
}

std::string source_for(const std::string& function, const std::vector<Case>& cases) {
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  int index = 0;
  for (const Case& c : cases) {
    // upsample(hi, lo) takes the signed or unsigned half and the unsigned low half.
    source += kernel_for(function, c.type, c.width, index++);
  }
  return source;
}

bool vector16_validates() {
  static const bool validates = [] {
    CompileOptions options;
    options.cl_std = OpenCLStd::CL3_0;
    try {
      compile_opencl("__kernel void k(__global float8* p) { p[0] = p[1] + p[2]; }", "probe.cl", options);
      return true;
    } catch (const CompileError&) {
      return false;
    }
  }();
  return validates;
}

// ---------------------------------------------------------------------------

class MathBuiltinsGolden : public ::testing::Test {
 protected:
  static const std::vector<Row>& rows() {
    static const std::vector<Row> kRows = read_table();
    return kRows;
  }

  // Compiles every case of `function` in one module; on failure, each alone.
  static void check(const Row& row, const std::string& function) {
    std::vector<Case> cases;
    // 8- and 16-wide vectors: every integer type and half (whose overloads
    // are defined apart from float's: builtins/math/half.cl); of float and
    // double, only float8 (the 16-wide overloads are two 8-wide calls,
    // double's the same code as float's, and compile time matters).
    for (const std::string& type : row.types)
      for (int width : widths_of(function)) {
        const bool floating = type == "float" || type == "double";
        if (width <= 4 || (vector16_validates() && (!floating || (type == "float" && width == 8))))
          cases.push_back({type, width});
      }
    if (!row.done) cases.resize(1);  // "not yet": the first case shows the error
    CompileOptions options;
    options.cl_std = OpenCLStd::CL3_0;
    const std::string where = "LOWERING.md:" + std::to_string(row.line) + ": ";
    try {
      const CompileResult result = compile_opencl(source_for(function, cases), function + ".cl", options);
      if (!row.done) {
        ADD_FAILURE() << where << describe(function, cases[0])
                      << " compiles, but the table says 'not yet': update its status";
        return;
      }
      if (row.instructions.empty()) return;
      const std::string text = disassemble(result.module.words);
      const bool found = std::any_of(row.instructions.begin(), row.instructions.end(), [&](const std::string& name) {
        return std::regex_search(text, std::regex("[ %]" + name + "[ \\n]"));
      });
      EXPECT_TRUE(found) << where << function << ": none of the instructions the table names ("
                         << row.lowering << ") is in the module";
    } catch (const CompileError& error) {
      const std::string message = error.what();
      if (!row.done) {
        EXPECT_NE(message.find("'" + function + "'"), std::string::npos)
            << where << describe(function, cases[0]) << ": the error does not name the builtin:\n" << message;
        EXPECT_EQ(message.find("internal"), std::string::npos)
            << where << describe(function, cases[0]) << ": an internal error instead of a diagnostic:\n" << message;
        return;
      }
      // Find the case(s) that fail.
      int failing = 0;
      for (const Case& c : cases) {
        try {
          compile_opencl(source_for(function, {c}), function + ".cl", options);
        } catch (const CompileError& single) {
          std::string text = single.what();
          if (text.size() > 1500) text = text.substr(0, 1500) + "...";
          ADD_FAILURE() << where << describe(function, c) << " does not compile:\n" << text;
          if (++failing == 3) break;
        }
      }
      if (failing == 0) ADD_FAILURE() << where << function << ": the module of all cases fails:\n" << message.substr(0, 1500);
    }
  }

  static void check_section(const std::set<std::string>& functions) {
    for (const Row& row : rows())
      for (const std::string& function : row.functions)
        if (functions.count(function)) {
          SCOPED_TRACE(function);
          check(row, function);
        }
  }
};

const std::set<std::string> kIntegerFunctions = {"abs", "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd", "clz",
                                                 "ctz", "popcount", "mul_hi", "rotate", "mad_hi", "mad_sat",
                                                 "upsample", "mad24", "mul24", "min", "max", "clamp"};
const std::set<std::string> kRelationalFunctions = {
    "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater", "isfinite",
    "isinf", "isnan", "isnormal", "isordered", "isunordered", "signbit", "any", "all", "bitselect", "select"};
const std::set<std::string> kGeometricFunctions = {"dot", "cross", "length", "distance", "normalize",
                                                   "fast_length", "fast_distance", "fast_normalize"};
const std::set<std::string> kCommonFunctions = {"degrees", "radians", "mix", "step", "smoothstep", "sign"};

std::set<std::string> math_functions() {
  std::set<std::string> all;
  for (const auto& [name, signature] : signatures()) all.insert(name);
  for (const auto* set : {&kIntegerFunctions, &kRelationalFunctions, &kGeometricFunctions, &kCommonFunctions})
    for (const std::string& f : *set) all.erase(f);
  return all;
}

TEST_F(MathBuiltinsGolden, TableNamesEveryFunction) {
  std::set<std::string> in_table;
  for (const Row& row : rows())
    for (const std::string& f : row.functions) {
      in_table.insert(f);
      EXPECT_TRUE(signatures().count(f)) << "LOWERING.md:" << row.line << ": '" << f << "' has no signature in the test";
    }
  for (const auto& [name, signature] : signatures())
    EXPECT_TRUE(in_table.count(name)) << "'" << name << "' is missing from LOWERING.md";
  if (!vector16_validates())
    std::printf("note: 8- and 16-wide vectors do not validate for Vulkan yet (Vector16); tested widths: 1-4\n");
}

TEST_F(MathBuiltinsGolden, Integer) { check_section(kIntegerFunctions); }
TEST_F(MathBuiltinsGolden, Common) { check_section(kCommonFunctions); }
TEST_F(MathBuiltinsGolden, Geometric) { check_section(kGeometricFunctions); }
TEST_F(MathBuiltinsGolden, Relational) { check_section(kRelationalFunctions); }
// The math functions in three parts, so that ctest can run them in parallel.
std::set<std::string> math_part(int part) {
  const std::set<std::string> all = math_functions();
  std::set<std::string> chosen;
  int i = 0;
  for (const std::string& f : all)
    if (i++ % 3 == part) chosen.insert(f);
  return chosen;
}
TEST_F(MathBuiltinsGolden, Math1) { check_section(math_part(0)); }

// ---------------------------------------------------------------------------
// Subnormal floats taken apart on their bits. A device may flush float
// subnormals in every float instruction, operands and results (NVIDIA's
// Vulkan driver does, and cannot be told not to), so a builtin that scales a
// subnormal up by a float multiplication (x * 0x1p32f is 0 there) or tells
// zero apart by a float comparison (x == 0 holds for a subnormal x) gives
// neither the right result nor the one for the flushed input (OpenCL C 3.0
// §7.5.3) there. Lavapipe keeps subnormals, so MathBuiltins.*FlushToZero
// (tests/host) emulates a flushing device to test the results; this checks
// the structure that makes them right, in each float function's module:
//   - the exact functions that only take numbers apart or compare them
//     (logb, ilogb, frexp, nextafter, maxmag, minmag, fmod, remainder,
//     remquo) have no float multiplication, division or comparison at all;
//   - log, log2, log10, cbrt and fract multiply or divide by no constant
//     power of two of 2^16 or more (a subnormal's scaling) and compare no
//     float with a constant zero.

struct FloatModule {
  std::map<uint32_t, uint32_t> float_constants;  // id -> bits of each 32-bit float scalar constant
  std::vector<std::vector<uint32_t>> instructions;
};

FloatModule read_float_module(std::span<const uint32_t> words) {
  FloatModule m;
  std::set<uint32_t> float_types;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
    if (count == 0 || i + count > words.size()) throw std::runtime_error("malformed module");
    std::vector<uint32_t> inst(words.begin() + i, words.begin() + i + count);
    if (opcode == 22 /* OpTypeFloat */ && inst[2] == 32) float_types.insert(inst[1]);
    if (opcode == 43 /* OpConstant */ && float_types.count(inst[1])) m.float_constants[inst[2]] = inst[3];
    m.instructions.push_back(std::move(inst));
    i += count;
  }
  return m;
}

bool is_float_comparison(uint32_t opcode) { return opcode >= 180 && opcode <= 191; }  // OpFOrdEqual..OpFUnordGreaterThanEqual
std::string opcode_name(uint32_t opcode) {
  static const char* const kComparisons[] = {"OpFOrdEqual", "OpFUnordEqual", "OpFOrdNotEqual", "OpFUnordNotEqual",
                                             "OpFOrdLessThan", "OpFUnordLessThan", "OpFOrdGreaterThan",
                                             "OpFUnordGreaterThan", "OpFOrdLessThanEqual", "OpFUnordLessThanEqual",
                                             "OpFOrdGreaterThanEqual", "OpFUnordGreaterThanEqual"};
  if (opcode == 133) return "OpFMul";
  if (opcode == 136) return "OpFDiv";
  if (is_float_comparison(opcode)) return kComparisons[opcode - 180];
  return "opcode " + std::to_string(opcode);
}

TEST_F(MathBuiltinsGolden, FloatSubnormalsAreTakenApartOnTheirBits) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL3_0;
  auto module_of = [&](const std::string& function) {
    return read_float_module(compile_opencl(source_for(function, {{"float", 1}}), function + ".cl", options).module.words);
  };
  for (const char* function : {"logb", "ilogb", "frexp", "nextafter", "maxmag", "minmag", "fmod", "remainder",
                               "remquo"}) {
    SCOPED_TRACE(function);
    for (const auto& inst : module_of(function).instructions) {
      const uint32_t opcode = inst[0] & 0xffffu;
      EXPECT_FALSE(opcode == 133 /* OpFMul */ || opcode == 136 /* OpFDiv */ || is_float_comparison(opcode))
          << function << "(float): " << opcode_name(opcode)
          << ", which a device that flushes subnormals gets wrong for a subnormal operand";
    }
  }
  for (const char* function : {"log", "log2", "log10", "cbrt", "fract"}) {
    SCOPED_TRACE(function);
    const FloatModule m = module_of(function);
    auto constant = [&](uint32_t id) -> std::optional<uint32_t> {
      const auto it = m.float_constants.find(id);
      if (it == m.float_constants.end()) return std::nullopt;
      return it->second;
    };
    for (const auto& inst : m.instructions) {
      const uint32_t opcode = inst[0] & 0xffffu;
      if (opcode != 133 && opcode != 136 && !is_float_comparison(opcode)) continue;
      for (size_t operand = 3; operand < inst.size(); ++operand) {
        const std::optional<uint32_t> bits = constant(inst[operand]);
        if (!bits) continue;
        const uint32_t magnitude = *bits & 0x7fffffffu;
        if (is_float_comparison(opcode)) {
          EXPECT_NE(magnitude, 0u) << function << "(float): a float compared with zero (" << opcode_name(opcode)
                                   << "), which holds for a subnormal on a device that flushes subnormals";
        } else {
          const bool big_power_of_two = (magnitude & 0x7fffffu) == 0 && (magnitude >> 23) >= 127 + 16 &&
                                        magnitude < 0x7f800000u;
          EXPECT_FALSE(big_power_of_two) << function << "(float): " << opcode_name(opcode) << " by the constant 2^"
                                         << int(magnitude >> 23) - 127
                                         << ", a subnormal's scaling, which a device that flushes subnormals makes 0";
        }
      }
    }
  }
}
TEST_F(MathBuiltinsGolden, Math2) { check_section(math_part(1)); }
TEST_F(MathBuiltinsGolden, Math3) { check_section(math_part(2)); }

}  // namespace
}  // namespace vkcl::testing
