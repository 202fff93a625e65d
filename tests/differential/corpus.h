// The corpus under shaders/corpus/: each kernel file's run header (the format
// is documented in shaders/corpus/README.md), the inputs it asks for, the
// comparison of two implementations' outputs, and the expected-failures list.
//
// Shared by the differential test (vkcl's side), the OpenCL reference worker
// and the validity test; it knows nothing of Vulkan, OpenCL or the compiler.
// Every parse error is a SpecError whose message starts with "file:line: ".
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vkcl::corpus {

struct SpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Scalar { Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, Float, Double };

// A scalar or vector element type as OpenCL C spells it ("int", "float4", "uchar16").
struct ElementType {
  Scalar scalar = Scalar::Int;
  uint32_t width = 1;  // 1, 2, 3, 4, 8 or 16

  size_t scalar_size() const;
  // Components an element occupies in memory: a 3-vector is as large as a 4-vector.
  uint32_t stored_components() const { return width == 3 ? 4 : width; }
  size_t size() const { return scalar_size() * stored_components(); }
  bool is_floating() const { return scalar == Scalar::Half || scalar == Scalar::Float || scalar == Scalar::Double; }
  bool is_signed() const;
  std::string name() const;
};
// Throws std::invalid_argument for anything that is not an OpenCL C scalar or vector type name.
ElementType parse_element_type(std::string_view text);

// How a buffer's initial contents are made; each component of each element
// in turn (padding of 3-vectors included) draws from the generator.
struct Generator {
  enum class Kind { Zero, Fill, Iota, Random, RandInt, Bits };
  Kind kind = Kind::Zero;
  uint64_t seed = 0;
  double a = 0, b = 0;    // Fill: a. Iota: start a, step b. Random/RandInt: [a, b].
  bool has_range = false;  // Random without a range: integers in [0, 127], floats in [0, 1)
  std::string text;        // as written
};

enum class ArgKind { Global, Constant, Local, Scalar };

struct Arg {
  std::string name;
  ArgKind kind = ArgKind::Scalar;
  ElementType type;
  size_t count = 0;       // elements (buffers and __local)
  Generator generator;    // buffers
  std::string value;      // scalars: comma-separated components, as written
  int line = 0;

  bool is_buffer() const { return kind == ArgKind::Global || kind == ArgKind::Constant; }
  size_t bytes() const { return is_buffer() || kind == ArgKind::Local ? count * type.size() : type.size(); }
};

struct Check {
  enum class Mode { Exact, Ulp, Abs };
  std::string arg;
  Mode mode = Mode::Exact;
  double tolerance = 0;  // Ulp: units in the last place; Abs: absolute difference
  int line = 0;
};

// The @bench-* directives: how the corpus benchmark (tools/corpus_bench)
// runs the kernel at a size worth timing. All empty: at its normal size.
// The differential test ignores them; at_bench_scale() applies them.
struct BenchSizes {
  std::array<uint64_t, 3> sizes{1, 1, 1};
  uint32_t dims = 1;
  int line = 0;
};
struct BenchScale {
  std::optional<BenchSizes> global;  // @bench-global, as many dimensions as @global
  std::optional<BenchSizes> local;   // @bench-local (absent: @local, if any)
  std::vector<Arg> args;             // @bench-arg: each replaces the @arg of its name (same kind and type)
  std::string skip;                  // @bench-skip's reason; not empty: the kernel is not benchmarked
  int skip_line = 0;

  bool empty() const { return !global && !local && args.empty() && skip.empty(); }
};

struct KernelSpec {
  std::filesystem::path file;
  std::string id;       // the file name without .cl: what tables and expectations call the kernel
  std::string kernel;   // the kernel function to run
  std::string cl_std = "CL1.2";
  std::vector<std::string> defines;    // NAME or NAME=VALUE, given to both compilers as -D
  std::vector<std::string> requires_;  // OpenCL extensions or features ("cl_khr_fp16", "cl_khr_subgroups")
  uint32_t dims = 1;
  std::array<uint64_t, 3> global{1, 1, 1};
  std::array<uint64_t, 3> local{0, 0, 0};  // all 0: the implementation picks
  std::array<uint64_t, 3> offset{0, 0, 0};
  bool has_local = false, has_offset = false;
  std::vector<Arg> args;  // in kernel argument order
  std::vector<Check> checks;
  BenchScale bench;

  const Arg* find_arg(std::string_view name) const;
  // "-cl-std=CL1.2 -DN=4": the build options both implementations get.
  std::string build_options() const;
};

// Parses the header of `source`; `file` names it in errors.
KernelSpec parse_spec(std::string_view source, const std::filesystem::path& file);
KernelSpec load_spec(const std::filesystem::path& file);
// `spec` with its @bench-global, @bench-local and @bench-arg lines applied
// (parse_spec checked them); `spec` itself when it has none.
KernelSpec at_bench_scale(const KernelSpec& spec);
std::string read_file(const std::filesystem::path& file);

// Every *.cl directly in `dir`, sorted by name.
std::vector<std::filesystem::path> list_corpus(const std::filesystem::path& dir);

// Both sides time a kernel's runs back to back on the device, each after a
// device-side copy restores its checked outputs, and first submit that same
// batch untimed at least this many times and for at least this long, so that
// every implementation is timed on a GPU at its working clock.
struct WarmUp {
  int min_runs;
  std::chrono::milliseconds min_time;
};
inline constexpr WarmUp kWarmUp{3, std::chrono::milliseconds(200)};

// The initial bytes of a buffer argument (deterministic: the same on every machine).
std::vector<std::byte> generate(const Arg& arg);
// Buffers are allocated with kGuardBytes of kGuardByte before and after
// the argument's bytes (the argument is the middle), and both guards are
// checked after the run: a kernel writing outside its buffer is reported
// instead of corrupting the process's heap (lavapipe's and PoCL's buffers
// are host memory).
inline constexpr size_t kGuardBytes = 4096;
inline constexpr std::byte kGuardByte{0xA5};
// The buffer with guards: guard, generate(arg), guard.
std::vector<std::byte> guarded(const Arg& arg);
// "" when both guards of `whole` (as guarded() laid it out) are intact, else
// which bytes outside the argument were written.
std::string check_guards(const Arg& arg, std::span<const std::byte> whole);

// A scalar argument's bytes. Throws SpecError when its value does not fit its type.
std::vector<std::byte> scalar_bytes(const Arg& arg);

// Compares `got` (vkcl) with `want` (the OpenCL reference) for one checked
// buffer. Returns "" when they agree, else a description of the first few
// differing components ("out[17].s2: vkcl 3, OpenCL 4") and how many there are.
struct Comparison {
  std::string mismatch;   // empty: within the check's bound
  double max_ulp = 0;     // the largest ulp distance seen (floating-point checks)
};
Comparison compare(const Check& check, const Arg& arg, std::span<const std::byte> got, std::span<const std::byte> want);

// Distance in units in the last place between two values of one floating
// type, as the count of representable values between them; 0 for two NaNs,
// infinity when exactly one is NaN.
double ulp_distance_half(uint16_t a, uint16_t b);
double ulp_distance_float(float a, float b);
double ulp_distance_double(double a, double b);
float half_to_float(uint16_t h);
uint16_t float_to_half(float f);  // round to nearest even

// Statuses of one kernel's run, as the expected-failures list spells them.
// "pass" is never listed.
inline constexpr std::string_view kStatuses[] = {
    "compile-error",        // vkcl refused the kernel with a located diagnostic (file:line:col: error: ...)
    "compile-error-noloc",  // ... with a diagnostic that has no source location
    "internal-error",       // vkcl reported an internal error (e.g. its validator caught an invalid module)
    "run-error",            // vkcl compiled it but loading or running it failed
    "mismatch",             // both ran; the outputs differ beyond the check's bound
    "opencl-unsupported",   // the OpenCL device lacks an extension or feature the kernel requires
    "vkcl-unsupported",     // the Vulkan device lacks a feature the kernel requires
    "opencl-error",         // the OpenCL reference failed to build or run the kernel
    "vkcl-crash",           // vkcl's compiler process died on the kernel
    "opencl-crash",         // the OpenCL reference process died on the kernel
};
bool is_status(std::string_view status);

struct Expectation {
  std::string status;
  std::string reason;
  int line = 0;
};
// `# comment` and blank lines are ignored; every other line is
// "<kernel id> <status> <reason...>". Throws SpecError for a malformed line,
// an unknown status or a kernel listed twice.
std::map<std::string, Expectation> parse_expectations(std::string_view text, const std::filesystem::path& file);

}  // namespace vkcl::corpus
