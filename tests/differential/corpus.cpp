#include "corpus.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

namespace vkcl::corpus {
namespace {

namespace fs = std::filesystem;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split(std::string_view s, char by) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t at = s.find(by, start);
    parts.emplace_back(trim(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// The first whitespace-separated word of `s`, removed from it.
std::string_view take_word(std::string_view& s) {
  s = trim(s);
  size_t end = 0;
  while (end < s.size() && s[end] != ' ' && s[end] != '\t') ++end;
  std::string_view word = s.substr(0, end);
  s = trim(s.substr(end));
  return word;
}

[[noreturn]] void fail(const fs::path& file, int line, const std::string& message) {
  throw SpecError(file.string() + ":" + std::to_string(line) + ": " + message);
}

bool parse_u64(std::string_view text, uint64_t& value) {
  std::string s(trim(text));
  if (s.empty() || s[0] == '-') return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtoull(s.c_str(), &end, 0);
  return errno == 0 && end == s.c_str() + s.size();
}

bool parse_double(std::string_view text, double& value) {
  std::string s(trim(text));
  if (s.empty()) return false;
  char* end = nullptr;
  value = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// "1024", "64,16", "8,8,4": one to three sizes.
uint32_t parse_sizes(std::string_view text, std::array<uint64_t, 3>& sizes, const fs::path& file, int line) {
  std::vector<std::string> parts = split(text, ',');
  if (parts.empty() || parts.size() > 3) fail(file, line, "expected 1 to 3 comma-separated sizes, got '" + std::string(text) + "'");
  for (size_t i = 0; i < parts.size(); ++i)
    if (!parse_u64(parts[i], sizes[i])) fail(file, line, "'" + parts[i] + "' is not a size");
  return uint32_t(parts.size());
}

Generator parse_generator(std::string_view text, const ElementType& type, const fs::path& file, int line) {
  Generator g;
  g.text = std::string(trim(text));
  std::string_view t = g.text;
  std::string_view name = t.substr(0, t.find('('));
  std::vector<double> params;
  if (name.size() < t.size()) {
    if (t.back() != ')') fail(file, line, "generator '" + g.text + "' lacks its closing parenthesis");
    std::string_view inside = t.substr(name.size() + 1, t.size() - name.size() - 2);
    for (const std::string& p : split(inside, ',')) {
      double v;
      if (!parse_double(p, v)) fail(file, line, "generator parameter '" + p + "' is not a number");
      params.push_back(v);
    }
  }
  name = trim(name);
  auto want = [&](std::initializer_list<size_t> counts) {
    if (std::find(counts.begin(), counts.end(), params.size()) == counts.end())
      fail(file, line, "generator '" + g.text + "' has the wrong number of parameters (see shaders/corpus/README.md)");
  };
  if (name == "zero") {
    want({0});
    g.kind = Generator::Kind::Zero;
  } else if (name == "fill") {
    want({1});
    g.kind = Generator::Kind::Fill;
    g.a = params[0];
  } else if (name == "iota") {
    want({0, 1, 2});
    g.kind = Generator::Kind::Iota;
    g.a = params.size() > 0 ? params[0] : 0;
    g.b = params.size() > 1 ? params[1] : 1;
  } else if (name == "random" || name == "randint") {
    want({1, 3});
    if (name == "randint" && params.size() != 3) fail(file, line, "randint takes (seed, lo, hi)");
    g.kind = name == "random" ? Generator::Kind::Random : Generator::Kind::RandInt;
    g.seed = uint64_t(params[0]);
    if (params.size() == 3) {
      g.has_range = true;
      g.a = params[1];
      g.b = params[2];
      if (g.b < g.a) fail(file, line, "generator '" + g.text + "': hi is below lo");
    }
  } else if (name == "bits") {
    want({1});
    if (type.is_floating()) fail(file, line, "bits(seed) is for integer buffers (random bits make NaNs of floats)");
    g.kind = Generator::Kind::Bits;
    g.seed = uint64_t(params[0]);
  } else {
    fail(file, line, "unknown generator '" + g.text + "' (zero, fill, iota, random, randint, bits)");
  }
  return g;
}

// "int[256]" or "float4[64]".
void parse_typed_count(std::string_view text, Arg& arg, const fs::path& file, int line) {
  size_t open = text.find('[');
  if (open == std::string_view::npos || text.back() != ']')
    fail(file, line, "expected TYPE[COUNT], got '" + std::string(text) + "'");
  try {
    arg.type = parse_element_type(text.substr(0, open));
  } catch (const std::invalid_argument& e) {
    fail(file, line, e.what());
  }
  if (!parse_u64(text.substr(open + 1, text.size() - open - 2), arg.count) || arg.count == 0)
    fail(file, line, "'" + std::string(text) + "': the count must be a positive number");
}

Arg parse_arg(std::string_view rest, const fs::path& file, int line) {
  Arg arg;
  arg.line = line;
  arg.name = std::string(take_word(rest));
  std::string_view kind = take_word(rest);
  if (arg.name.empty() || kind.empty()) fail(file, line, "@arg needs a name and a kind or type");
  if (kind == "global" || kind == "constant") {
    arg.kind = kind == "global" ? ArgKind::Global : ArgKind::Constant;
    parse_typed_count(take_word(rest), arg, file, line);
    if (rest.empty()) fail(file, line, "buffer argument '" + arg.name + "' needs a generator (zero, iota, random(...), ...)");
    arg.generator = parse_generator(rest, arg.type, file, line);
  } else if (kind == "local") {
    arg.kind = ArgKind::Local;
    parse_typed_count(take_word(rest), arg, file, line);
    if (!rest.empty()) fail(file, line, "a __local argument has no initial contents: '" + std::string(rest) + "'");
  } else {
    arg.kind = ArgKind::Scalar;
    try {
      arg.type = parse_element_type(kind);
    } catch (const std::invalid_argument& e) {
      fail(file, line, std::string(e.what()) + " (an argument is global, constant, local or a scalar type)");
    }
    arg.value = std::string(trim(rest));
    if (arg.value.empty()) fail(file, line, "scalar argument '" + arg.name + "' needs a value");
    try {
      scalar_bytes(arg);  // checks the value now
    } catch (const SpecError& e) {
      fail(file, line, e.what());
    }
  }
  return arg;
}

std::string sizes_text(const std::array<uint64_t, 3>& sizes, uint32_t dims) {
  std::string text;
  for (uint32_t d = 0; d < dims; ++d) text += (d ? "," : "") + std::to_string(sizes[d]);
  return text;
}

const char* kind_name(ArgKind kind) {
  switch (kind) {
    case ArgKind::Global: return "global";
    case ArgKind::Constant: return "constant";
    case ArgKind::Local: return "local";
    case ArgKind::Scalar: return "scalar";
  }
  return "?";
}

// One @bench-* line; what it must agree with (@global, the @arg it
// replaces) is checked once the whole header is read, in check_bench_scale.
void parse_bench_directive(std::string_view key, std::string_view rest, KernelSpec& spec, const fs::path& file, int line) {
  BenchScale& bench = spec.bench;
  auto once = [&](int first_line) {
    if (first_line) fail(file, line, "@" + std::string(key) + " given twice (first at line " + std::to_string(first_line) + ")");
  };
  auto sizes = [&](std::optional<BenchSizes>& field) {
    once(field ? field->line : 0);
    field.emplace();
    field->dims = parse_sizes(rest, field->sizes, file, line);
    field->line = line;
  };
  if (key == "bench-global") {
    sizes(bench.global);
  } else if (key == "bench-local") {
    sizes(bench.local);
  } else if (key == "bench-arg") {
    Arg arg = parse_arg(rest, file, line);
    for (const Arg& other : bench.args)
      if (other.name == arg.name) once(other.line);
    bench.args.push_back(std::move(arg));
  } else if (key == "bench-skip") {
    once(bench.skip_line);
    bench.skip = std::string(trim(rest));
    bench.skip_line = line;
    if (bench.skip.empty()) fail(file, line, "@bench-skip needs a reason (the benchmark's report prints it)");
  } else {
    fail(file, line, "unknown directive '@" + std::string(key) + "' (@bench-global, @bench-local, @bench-arg, @bench-skip)");
  }
}

// The @bench-* lines against the rest of the header.
void check_bench_scale(const KernelSpec& spec, const fs::path& file) {
  const BenchScale& bench = spec.bench;
  if (!bench.skip.empty()) {
    if (bench.global || bench.local || !bench.args.empty())
      fail(file, bench.skip_line, "@bench-skip with other @bench-* lines: a skipped kernel has no bench scale");
    return;
  }
  for (const std::optional<BenchSizes>* sizes : {&bench.global, &bench.local})
    if (*sizes && (*sizes)->dims != spec.dims)
      fail(file, (*sizes)->line, std::string(sizes == &bench.global ? "@bench-global" : "@bench-local") + " has " +
                                     std::to_string((*sizes)->dims) + " dimensions, @global " + std::to_string(spec.dims));
  for (const Arg& replacement : bench.args) {
    const Arg* arg = spec.find_arg(replacement.name);
    if (!arg) fail(file, replacement.line, "@bench-arg names '" + replacement.name + "', which no @arg describes");
    if (arg->kind != replacement.kind)
      fail(file, replacement.line, "@bench-arg " + arg->name + " is " + kind_name(replacement.kind) + ", its @arg (line " +
                                       std::to_string(arg->line) + ") " + kind_name(arg->kind) +
                                       ": only the count, generator or value may change");
    if (arg->type.scalar != replacement.type.scalar || arg->type.width != replacement.type.width)
      fail(file, replacement.line, "@bench-arg " + arg->name + " has type " + replacement.type.name() + ", its @arg (line " +
                                       std::to_string(arg->line) + ") " + arg->type.name() +
                                       ": only the count, generator or value may change");
  }
  if (!bench.global && !bench.local) return;
  const KernelSpec scaled = at_bench_scale(spec);
  for (uint32_t d = 0; bench.global && d < spec.dims; ++d)
    if (scaled.global[d] == 0) fail(file, bench.global->line, "@bench-global sizes must be positive");
  if (!scaled.has_local) return;
  for (uint32_t d = 0; d < spec.dims; ++d)
    if (scaled.local[d] == 0 || scaled.global[d] % scaled.local[d] != 0)
      fail(file, bench.local ? bench.local->line : bench.global->line,
           "the bench-scale global size " + sizes_text(scaled.global, spec.dims) + " is not a multiple of the local size " +
               sizes_text(scaled.local, spec.dims) + (bench.local ? "" : " (@local)") +
               " in every dimension (OpenCL 1.2 devices need uniform work-groups)");
}

// splitmix64: small, fast and the same everywhere.
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E5Full) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

void store_integer(std::byte* at, size_t size, uint64_t bits) {
  // Little-endian truncation: two's complement for signed values.
  for (size_t i = 0; i < size; ++i) at[i] = std::byte(bits >> (8 * i));
}

void store_floating(std::byte* at, Scalar scalar, double value) {
  if (scalar == Scalar::Half) {
    uint16_t h = float_to_half(float(value));
    std::memcpy(at, &h, 2);
  } else if (scalar == Scalar::Float) {
    float f = float(value);
    std::memcpy(at, &f, 4);
  } else {
    std::memcpy(at, &value, 8);
  }
}

uint64_t load_integer(const std::byte* at, size_t size, bool is_signed) {
  uint64_t v = 0;
  for (size_t i = 0; i < size; ++i) v |= uint64_t(at[i]) << (8 * i);
  if (is_signed && size < 8 && (v >> (8 * size - 1)) & 1) v |= ~uint64_t(0) << (8 * size);
  return v;
}

double load_floating(const std::byte* at, Scalar scalar) {
  if (scalar == Scalar::Half) {
    uint16_t h;
    std::memcpy(&h, at, 2);
    return half_to_float(h);
  }
  if (scalar == Scalar::Float) {
    float f;
    std::memcpy(&f, at, 4);
    return f;
  }
  double d;
  std::memcpy(&d, at, 8);
  return d;
}

std::string describe_component(const std::byte* at, const ElementType& type) {
  char text[96];
  if (type.is_floating()) {
    double v = load_floating(at, type.scalar);
    uint64_t bits = load_integer(at, type.scalar_size(), false);
    std::snprintf(text, sizeof text, "%.9g (0x%0*" PRIx64 ")", v, int(type.scalar_size() * 2), bits);
  } else if (type.is_signed()) {
    std::snprintf(text, sizeof text, "%" PRId64, int64_t(load_integer(at, type.scalar_size(), true)));
  } else {
    std::snprintf(text, sizeof text, "%" PRIu64, load_integer(at, type.scalar_size(), false));
  }
  return text;
}

}  // namespace

size_t ElementType::scalar_size() const {
  switch (scalar) {
    case Scalar::Char: case Scalar::UChar: return 1;
    case Scalar::Short: case Scalar::UShort: case Scalar::Half: return 2;
    case Scalar::Int: case Scalar::UInt: case Scalar::Float: return 4;
    case Scalar::Long: case Scalar::ULong: case Scalar::Double: return 8;
  }
  return 0;
}

bool ElementType::is_signed() const {
  return scalar == Scalar::Char || scalar == Scalar::Short || scalar == Scalar::Int || scalar == Scalar::Long;
}

std::string ElementType::name() const {
  static constexpr const char* names[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                          "long", "ulong", "half", "float", "double"};
  std::string n = names[int(scalar)];
  return width == 1 ? n : n + std::to_string(width);
}

ElementType parse_element_type(std::string_view text) {
  static constexpr std::pair<std::string_view, Scalar> scalars[] = {
      {"uchar", Scalar::UChar}, {"char", Scalar::Char},   {"ushort", Scalar::UShort}, {"short", Scalar::Short},
      {"uint", Scalar::UInt},   {"int", Scalar::Int},     {"ulong", Scalar::ULong},   {"long", Scalar::Long},
      {"half", Scalar::Half},   {"float", Scalar::Float}, {"double", Scalar::Double}};
  for (auto [name, scalar] : scalars) {
    if (!text.starts_with(name)) continue;
    std::string_view suffix = text.substr(name.size());
    ElementType type{scalar, 1};
    if (suffix.empty()) return type;
    for (uint32_t w : {2u, 3u, 4u, 8u, 16u})
      if (suffix == std::to_string(w)) {
        type.width = w;
        return type;
      }
  }
  throw std::invalid_argument("'" + std::string(text) + "' is not an OpenCL C scalar or vector type");
}

const Arg* KernelSpec::find_arg(std::string_view name) const {
  for (const Arg& a : args)
    if (a.name == name) return &a;
  return nullptr;
}

std::string KernelSpec::build_options() const {
  std::string options = "-cl-std=" + cl_std;
  for (const std::string& d : defines) options += " -D" + d;
  return options;
}

KernelSpec parse_spec(std::string_view source, const fs::path& file) {
  KernelSpec spec;
  spec.file = file;
  spec.id = file.stem().string();
  bool have_global = false;
  int line_number = 0;
  size_t pos = 0;
  while (pos < source.size()) {
    size_t end = source.find('\n', pos);
    std::string_view line = trim(source.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    pos = end == std::string_view::npos ? source.size() : end + 1;
    ++line_number;
    if (!line.starts_with("//")) break;  // the header is the file's leading run of // comments
    line = trim(line.substr(2));
    if (!line.starts_with("@")) continue;
    std::string_view rest = line.substr(1);
    std::string_view key = take_word(rest);
    const int n = line_number;
    if (key == "kernel") {
      spec.kernel = std::string(take_word(rest));
      if (spec.kernel.empty() || !rest.empty()) fail(file, n, "@kernel takes one name");
    } else if (key == "std") {
      spec.cl_std = std::string(rest);
      if (spec.cl_std != "CL1.2" && spec.cl_std != "CL2.0" && spec.cl_std != "CL3.0")
        fail(file, n, "@std must be CL1.2, CL2.0 or CL3.0, not '" + spec.cl_std + "'");
    } else if (key == "define") {
      for (std::string_view d = take_word(rest); !d.empty(); d = take_word(rest)) spec.defines.emplace_back(d);
    } else if (key == "requires") {
      for (std::string_view r = take_word(rest); !r.empty(); r = take_word(rest)) spec.requires_.emplace_back(r);
    } else if (key == "global") {
      spec.dims = parse_sizes(rest, spec.global, file, n);
      have_global = true;
    } else if (key == "local") {
      std::array<uint64_t, 3> local{1, 1, 1};
      uint32_t dims = parse_sizes(rest, local, file, n);
      spec.local = local;
      spec.has_local = true;
      if (have_global && dims != spec.dims) fail(file, n, "@local has another number of dimensions than @global");
    } else if (key == "offset") {
      spec.has_offset = true;
      parse_sizes(rest, spec.offset, file, n);
    } else if (key == "arg") {
      Arg arg = parse_arg(rest, file, n);
      if (spec.find_arg(arg.name)) fail(file, n, "argument '" + arg.name + "' is described twice");
      spec.args.push_back(std::move(arg));
    } else if (key == "check") {
      Check check;
      check.line = n;
      check.arg = std::string(take_word(rest));
      std::string_view mode = take_word(rest);
      if (mode == "exact") {
        check.mode = Check::Mode::Exact;
      } else if (mode == "ulp" || mode == "abs") {
        check.mode = mode == "ulp" ? Check::Mode::Ulp : Check::Mode::Abs;
        if (!parse_double(take_word(rest), check.tolerance) || check.tolerance < 0)
          fail(file, n, "@check " + check.arg + " " + std::string(mode) + " needs a non-negative bound");
      } else {
        fail(file, n, "@check NAME exact | ulp N | abs E");
      }
      if (!rest.empty()) fail(file, n, "unexpected '" + std::string(rest) + "' after the check");
      spec.checks.push_back(check);
    } else if (key.starts_with("bench-")) {
      parse_bench_directive(key, rest, spec, file, n);
    } else {
      fail(file, n, "unknown directive '@" + std::string(key) + "'");
    }
  }
  if (spec.kernel.empty()) fail(file, 1, "the header has no @kernel");
  if (!have_global) fail(file, 1, "the header has no @global");
  if (spec.checks.empty()) fail(file, 1, "the header has no @check: nothing would be compared");
  if (spec.has_local) {
    for (uint32_t d = 0; d < spec.dims; ++d)
      if (spec.local[d] == 0 || spec.global[d] % spec.local[d] != 0)
        fail(file, 1, "@global must be a multiple of @local in every dimension (OpenCL 1.2 devices need uniform work-groups)");
  }
  for (const Check& c : spec.checks) {
    const Arg* arg = spec.find_arg(c.arg);
    if (!arg || !arg->is_buffer()) fail(file, c.line, "@check names '" + c.arg + "', which is not a buffer argument");
    if (c.mode != Check::Mode::Exact && !arg->type.is_floating())
      fail(file, c.line, "@check " + c.arg + ": ulp and abs bounds are for floating-point buffers; integers compare exactly");
  }
  check_bench_scale(spec, file);
  return spec;
}

KernelSpec at_bench_scale(const KernelSpec& spec) {
  KernelSpec scaled = spec;
  const BenchScale& bench = spec.bench;
  if (bench.global) scaled.global = bench.global->sizes;
  if (bench.local) {
    scaled.local = bench.local->sizes;
    scaled.has_local = true;
  }
  for (const Arg& replacement : bench.args)
    for (Arg& arg : scaled.args)
      if (arg.name == replacement.name) arg = replacement;
  return scaled;
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw SpecError(file.string() + ": cannot be read");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

KernelSpec load_spec(const fs::path& file) { return parse_spec(read_file(file), file); }

std::vector<fs::path> list_corpus(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".cl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::byte> generate(const Arg& arg) {
  const ElementType& type = arg.type;
  const size_t components = arg.count * type.stored_components();
  const size_t size = type.scalar_size();
  std::vector<std::byte> bytes(components * size);
  const Generator& g = arg.generator;
  Random random(g.seed);
  for (size_t k = 0; k < components; ++k) {
    std::byte* at = bytes.data() + k * size;
    switch (g.kind) {
      case Generator::Kind::Zero:
        break;  // already zero
      case Generator::Kind::Fill:
      case Generator::Kind::Iota: {
        double v = g.kind == Generator::Kind::Fill ? g.a : g.a + g.b * double(k);
        if (type.is_floating()) store_floating(at, type.scalar, v);
        else store_integer(at, size, uint64_t(int64_t(v)));
        break;
      }
      case Generator::Kind::Random:
      case Generator::Kind::RandInt: {
        const bool integral = !type.is_floating() || g.kind == Generator::Kind::RandInt;
        if (integral) {
          double lo = g.has_range ? g.a : 0, hi = g.has_range ? g.b : 127;
          uint64_t span = uint64_t(int64_t(hi) - int64_t(lo)) + 1;
          int64_t v = int64_t(lo) + int64_t(span == 0 ? random.next() : random.next() % span);
          if (type.is_floating()) store_floating(at, type.scalar, double(v));
          else store_integer(at, size, uint64_t(v));
        } else {
          double lo = g.has_range ? g.a : 0, hi = g.has_range ? g.b : 1;
          store_floating(at, type.scalar, lo + (hi - lo) * random.unit());
        }
        break;
      }
      case Generator::Kind::Bits:
        store_integer(at, size, random.next());
        break;
    }
  }
  return bytes;
}

std::vector<std::byte> guarded(const Arg& arg) {
  std::vector<std::byte> whole(kGuardBytes, kGuardByte);
  std::vector<std::byte> bytes = generate(arg);
  whole.insert(whole.end(), bytes.begin(), bytes.end());
  whole.insert(whole.end(), kGuardBytes, kGuardByte);
  return whole;
}

std::string check_guards(const Arg& arg, std::span<const std::byte> whole) {
  const size_t size = arg.bytes();
  if (whole.size() != size + 2 * kGuardBytes) return arg.name + ": the buffer with its guards has the wrong size";
  std::string report;
  auto scan = [&](size_t from, size_t to, const char* where) {
    size_t first = to, last = from, count = 0;
    for (size_t i = from; i < to; ++i)
      if (whole[i] != kGuardByte) {
        first = std::min(first, i);
        last = i;
        ++count;
      }
    if (!count) return;
    auto offset = [&](size_t i) { return std::to_string(int64_t(i) - int64_t(kGuardBytes)); };
    char value[8];
    std::snprintf(value, sizeof value, "0x%02x", unsigned(whole[first]));
    report += (report.empty() ? "" : "; ") + std::to_string(count) + " bytes " + where + " '" + arg.name +
              "' were written (byte offsets " + offset(first) + " to " + offset(last) + " of its " +
              std::to_string(size) + "; the first is now " + value + ")";
  };
  scan(0, kGuardBytes, "before");
  scan(kGuardBytes + size, whole.size(), "after");
  return report;
}

std::vector<std::byte> scalar_bytes(const Arg& arg) {
  const ElementType& type = arg.type;
  std::vector<std::string> parts = split(arg.value, ',');
  if (parts.size() != 1 && parts.size() != type.width)
    throw SpecError("argument '" + arg.name + "': " + type.name() + " needs 1 or " + std::to_string(type.width) +
                    " values, got '" + arg.value + "'");
  std::vector<std::byte> bytes(type.size());
  const size_t size = type.scalar_size();
  for (uint32_t c = 0; c < type.width; ++c) {
    const std::string& text = parts[parts.size() == 1 ? 0 : c];
    std::byte* at = bytes.data() + c * size;
    if (type.is_floating()) {
      double v;
      if (!parse_double(text, v)) throw SpecError("argument '" + arg.name + "': '" + text + "' is not a number");
      store_floating(at, type.scalar, v);
      continue;
    }
    std::string s(trim(text));
    errno = 0;
    char* end = nullptr;
    uint64_t bits;
    bool fits;
    if (type.is_signed()) {
      int64_t v = std::strtoll(s.c_str(), &end, 0);
      int64_t max = size == 8 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (8 * size - 1)) - 1;
      fits = v >= -max - 1 && v <= max;
      bits = uint64_t(v);
    } else {
      uint64_t v = std::strtoull(s.c_str(), &end, 0);
      fits = !s.empty() && s[0] != '-' && (size == 8 || v < (uint64_t(1) << (8 * size)));
      bits = v;
    }
    if (s.empty() || errno != 0 || end != s.c_str() + s.size() || !fits)
      throw SpecError("argument '" + arg.name + "': '" + text + "' is not a " + type.name() + " value");
    store_integer(at, size, bits);
  }
  return bytes;
}

float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff, bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalize
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while (!(mantissa & 0x400));
    bits = sign | uint32_t(112 - e) << 23 | (mantissa & 0x3ff) << 13;
  }
  return std::bit_cast<float>(bits);
}

uint16_t float_to_half(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) return sign | 0x7c00 | (magnitude > 0x7f800000 ? 0x200 : 0);  // inf, NaN
  if (magnitude >= 0x477ff000) return sign | 0x7c00;  // rounds to beyond 65504
  if (magnitude < 0x38800000) {                        // subnormal half or zero
    if (magnitude < 0x33000000) return sign;           // below half of the smallest subnormal
    uint32_t mantissa = (magnitude & 0x7fffff) | 0x800000;
    int shift = 126 - int(magnitude >> 23);  // 14 .. 24
    uint32_t value = mantissa >> shift, rest = mantissa & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (value & 1))) ++value;
    return sign | uint16_t(value);
  }
  uint32_t value = ((magnitude >> 13) - (112u << 10)), rest = magnitude & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (value & 1))) ++value;
  return sign | uint16_t(value);
}

namespace {
template <typename Bits>
double ordered_distance(Bits a, Bits b, int bits_count, bool a_nan, bool b_nan) {
  if (a_nan || b_nan) return a_nan && b_nan ? 0 : std::numeric_limits<double>::infinity();
  const Bits sign = Bits(1) << (bits_count - 1);
  auto ordered = [&](Bits v) -> __int128 { return (v & sign) ? -__int128(v & (sign - 1)) : __int128(v); };
  __int128 d = ordered(a) - ordered(b);
  return double(d < 0 ? -d : d);
}
}  // namespace

double ulp_distance_half(uint16_t a, uint16_t b) {
  auto nan = [](uint16_t v) { return (v & 0x7c00) == 0x7c00 && (v & 0x3ff); };
  return ordered_distance<uint16_t>(a, b, 16, nan(a), nan(b));
}
double ulp_distance_float(float a, float b) {
  return ordered_distance(std::bit_cast<uint32_t>(a), std::bit_cast<uint32_t>(b), 32, std::isnan(a), std::isnan(b));
}
double ulp_distance_double(double a, double b) {
  return ordered_distance(std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b), 64, std::isnan(a), std::isnan(b));
}

Comparison compare(const Check& check, const Arg& arg, std::span<const std::byte> got, std::span<const std::byte> want) {
  Comparison result;
  const ElementType& type = arg.type;
  const size_t size = type.scalar_size();
  if (got.size() != arg.bytes() || want.size() != arg.bytes()) {
    result.mismatch = arg.name + ": expected " + std::to_string(arg.bytes()) + " bytes from each side, got " +
                      std::to_string(got.size()) + " from vkcl and " + std::to_string(want.size()) + " from OpenCL";
    return result;
  }
  size_t differing = 0;
  std::ostringstream first;
  for (size_t e = 0; e < arg.count; ++e) {
    for (uint32_t c = 0; c < type.width; ++c) {  // padding of 3-vectors is not compared
      const size_t at = (e * type.stored_components() + c) * size;
      const std::byte* g = got.data() + at;
      const std::byte* w = want.data() + at;
      bool same = false;
      if (!type.is_floating()) {
        same = std::memcmp(g, w, size) == 0;
      } else {
        double ulp;
        if (type.scalar == Scalar::Half) {
          ulp = ulp_distance_half(uint16_t(load_integer(g, 2, false)), uint16_t(load_integer(w, 2, false)));
        } else if (type.scalar == Scalar::Float) {
          ulp = ulp_distance_float(float(load_floating(g, type.scalar)), float(load_floating(w, type.scalar)));
        } else {
          ulp = ulp_distance_double(load_floating(g, type.scalar), load_floating(w, type.scalar));
        }
        double gv = load_floating(g, type.scalar), wv = load_floating(w, type.scalar);
        switch (check.mode) {
          case Check::Mode::Exact: same = std::memcmp(g, w, size) == 0 || (std::isnan(gv) && std::isnan(wv)); break;
          case Check::Mode::Ulp: same = ulp <= check.tolerance; break;
          case Check::Mode::Abs:
            same = (std::isnan(gv) && std::isnan(wv)) || gv == wv || std::fabs(gv - wv) <= check.tolerance;
            break;
        }
        if (ulp > result.max_ulp && !std::isinf(ulp)) result.max_ulp = ulp;
        if (std::isinf(ulp)) result.max_ulp = ulp;
      }
      if (same) continue;
      if (differing++ < 3) {
        first << (differing > 1 ? "; " : "") << arg.name << "[" << e << "]";
        if (type.width > 1) first << ".s" << "0123456789abcdef"[c];
        first << ": vkcl " << describe_component(g, type) << ", OpenCL " << describe_component(w, type);
      }
    }
  }
  if (differing) {
    result.mismatch = first.str() + " (" + std::to_string(differing) + " of " +
                      std::to_string(arg.count * type.width) + " components differ";
    if (check.mode == Check::Mode::Ulp) {
      char bound[64];
      std::snprintf(bound, sizeof bound, " beyond %g ulp", check.tolerance);
      result.mismatch += bound;
    }
    result.mismatch += ")";
  }
  return result;
}

bool is_status(std::string_view status) {
  return std::find(std::begin(kStatuses), std::end(kStatuses), status) != std::end(kStatuses);
}

std::map<std::string, Expectation> parse_expectations(std::string_view text, const fs::path& file) {
  std::map<std::string, Expectation> expectations;
  int line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line = trim(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line_number;
    if (line.empty() || line.starts_with("#")) continue;
    std::string id(take_word(line));
    std::string status(take_word(line));
    if (!is_status(status)) fail(file, line_number, "'" + status + "' is not a status (see the list at the top)");
    if (line.empty()) fail(file, line_number, id + ": give the reason after the status");
    if (expectations.contains(id)) fail(file, line_number, id + " is listed twice");
    expectations[id] = Expectation{status, std::string(line), line_number};
  }
  return expectations;
}

}  // namespace vkcl::corpus
