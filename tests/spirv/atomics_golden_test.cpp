// Generated golden test of the OpenCL C atomic functions: every function,
// on __global and __local objects (directly and through generic pointers
// clang resolves), with every memory order and memory scope, under every
// memory-model configuration, compiled in process and compared with an
// oracle that restates the mapping (builtins/atomics.cl, docs/synchronization.md,
// "Atomics") without calling into the compiler: the exact
// opcode, scope and semantics of the one atomic instruction each call
// becomes, or a compile error at the call for the values the specification
// forbids. Every module that compiles also passes spirv-val for Vulkan
// 1.1/1.2/1.3 and the Vulkan memory-semantics rules newer than it.
//
// Cases are grouped by family (the instantiation prefix), one ctest entry
// each (AtomicsGolden.<family>).
#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <bit>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "barrier_inspection.h"
#include "vulkan_environment.h"
#include "compiler.h"
#include "module.h"
#include "pass.h"

namespace vkcl::testing {
namespace {

constexpr OpenCLStd CL12 = OpenCLStd::CL1_2, CL20 = OpenCLStd::CL2_0, CL30 = OpenCLStd::CL3_0;

std::string version_name(OpenCLStd version) {
  static const char* const kNames[] = {"CL1.2", "CL2.0", "CL3.0"};
  return kNames[int(version)];
}

// ---------------------------------------------------------------------------
// SPIR-V values the oracle speaks in (SPIR-V specification 3.25, 3.27).

enum SpvScope : uint32_t { kDevice = 1, kWorkgroup = 2, kSubgroup = 3, kQueueFamily = 5 };
enum Semantics : uint32_t {
  kAcquire = 0x2, kRelease = 0x4, kAcquireRelease = 0x8, kSequentiallyConsistent = 0x10,
  kUniformMemory = 0x40, kWorkgroupMemory = 0x100, kCrossWorkgroupMemory = 0x200, kImageMemory = 0x800,
  kOutputMemory = 0x1000, kMakeAvailable = 0x2000, kMakeVisible = 0x4000,
};

// OpenCL's memory_order and memory_scope values as clang 15's
// opencl-c-base.h defines them.
namespace opencl {
enum : uint32_t { kRelaxed = 0, kAcquire = 2, kRelease = 3, kAcqRel = 4, kSeqCst = 5 };
enum : uint32_t { kWorkItem = 0, kWorkGroup = 1, kDeviceScope = 2, kAllSvmDevices = 3, kSubGroup = 4 };
}  // namespace opencl

// ---------------------------------------------------------------------------
// The cases.

// What the function does to its object, which decides the orders it takes.
enum class Kind { Load, Store, ReadModifyWrite, CompareExchange };

struct Function {
  const char* name;         // as the user writes it (C11: without _explicit)
  const char* id;           // in test names
  Kind kind;
  const char* object_type;  // the pointee of the object pointer
  const char* value_type;   // of `expected` (compare-exchange) and the call's result
  const char* operand;      // the value argument, nullptr when none
  spv::Op opcode;           // what it must become
};

// OpenCL C 2.0/3.0 functions, on atomic_int unless the name says otherwise.
const Function kC11Functions[] = {
    {"atomic_load", "load", Kind::Load, "atomic_int", "int", nullptr, spv::Op::OpAtomicLoad},
    {"atomic_store", "store", Kind::Store, "atomic_int", "int", "7", spv::Op::OpAtomicStore},
    {"atomic_exchange", "exchange", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicExchange},
    {"atomic_fetch_add", "fetch_add", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicIAdd},
    {"atomic_fetch_sub", "fetch_sub", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicISub},
    {"atomic_fetch_or", "fetch_or", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicOr},
    {"atomic_fetch_xor", "fetch_xor", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicXor},
    {"atomic_fetch_and", "fetch_and", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicAnd},
    {"atomic_fetch_min", "fetch_min_int", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicSMin},
    {"atomic_fetch_max", "fetch_max_int", Kind::ReadModifyWrite, "atomic_int", "int", "7", spv::Op::OpAtomicSMax},
    {"atomic_fetch_min", "fetch_min_uint", Kind::ReadModifyWrite, "atomic_uint", "uint", "7u", spv::Op::OpAtomicUMin},
    {"atomic_fetch_max", "fetch_max_uint", Kind::ReadModifyWrite, "atomic_uint", "uint", "7u", spv::Op::OpAtomicUMax},
    // An atomic_flag is an int: test_and_set exchanges 1 in, clear stores 0.
    {"atomic_flag_test_and_set", "flag_test_and_set", Kind::ReadModifyWrite, "atomic_flag", "int", nullptr,
     spv::Op::OpAtomicExchange},
    {"atomic_flag_clear", "flag_clear", Kind::Store, "atomic_flag", "int", nullptr, spv::Op::OpAtomicStore},
};
// Weak is strong: OpAtomicCompareExchangeWeak needs the Kernel capability.
const Function kCompareExchangeStrong{"atomic_compare_exchange_strong", "compare_exchange_strong",
                                      Kind::CompareExchange, "atomic_int", "int", "7",
                                      spv::Op::OpAtomicCompareExchange};
const Function kCompareExchangeWeak{"atomic_compare_exchange_weak", "compare_exchange_weak", Kind::CompareExchange,
                                    "atomic_int", "int", "7", spv::Op::OpAtomicCompareExchange};

// OpenCL 1.x functions (atomic_ and atom_ share them), on int and uint.
struct LegacyFunction {
  const char* name;  // without the prefix
  int operands;      // values after the pointer
  spv::Op signed_opcode, unsigned_opcode;
};
const LegacyFunction kLegacyFunctions[] = {
    {"add", 1, spv::Op::OpAtomicIAdd, spv::Op::OpAtomicIAdd},
    {"sub", 1, spv::Op::OpAtomicISub, spv::Op::OpAtomicISub},
    {"xchg", 1, spv::Op::OpAtomicExchange, spv::Op::OpAtomicExchange},
    {"inc", 0, spv::Op::OpAtomicIIncrement, spv::Op::OpAtomicIIncrement},
    {"dec", 0, spv::Op::OpAtomicIDecrement, spv::Op::OpAtomicIDecrement},
    {"cmpxchg", 2, spv::Op::OpAtomicCompareExchange, spv::Op::OpAtomicCompareExchange},
    {"min", 1, spv::Op::OpAtomicSMin, spv::Op::OpAtomicUMin},
    {"max", 1, spv::Op::OpAtomicSMax, spv::Op::OpAtomicUMax},
    {"and", 1, spv::Op::OpAtomicAnd, spv::Op::OpAtomicAnd},
    {"or", 1, spv::Op::OpAtomicOr, spv::Op::OpAtomicOr},
    {"xor", 1, spv::Op::OpAtomicXor, spv::Op::OpAtomicXor},
};

struct MemoryModelConfig {
  const char* id;     // in test names
  const char* words;  // in failure messages
  MemoryModel model;
  bool vulkan_device_scope;
};
const MemoryModelConfig kConfigs[] = {
    {"vulkan_device", "vulkan, device scope", MemoryModel::Vulkan, true},
    {"vulkan_queue_family", "vulkan, queue-family scope", MemoryModel::Vulkan, false},
    {"glsl450", "glsl450", MemoryModel::GLSL450, false},
};

// Where the object is, and how the call reaches it.
enum class Space { Global, Local, GenericGlobal, GenericLocal };
const char* space_id(Space s) {
  static const char* const kIds[] = {"global", "local", "generic_global", "generic_local"};
  return kIds[int(s)];
}
bool is_local(Space s) { return s == Space::Local || s == Space::GenericLocal; }
bool is_generic(Space s) { return s == Space::GenericGlobal || s == Space::GenericLocal; }

struct Argument {
  std::string spelling;
  uint32_t value = 0;
  std::string id;  // in test names
};
const Argument kNone{};
const Argument kSeqCst{"memory_order_seq_cst", opencl::kSeqCst, "seq_cst"};
const Argument kDeviceScope{"memory_scope_device", opencl::kDeviceScope, "device"};

const std::vector<Argument> kOrders = {
    {"memory_order_relaxed", opencl::kRelaxed, "relaxed"}, {"memory_order_acquire", opencl::kAcquire, "acquire"},
    {"memory_order_release", opencl::kRelease, "release"}, {"memory_order_acq_rel", opencl::kAcqRel, "acq_rel"},
    kSeqCst,
};
const std::vector<Argument> kInvalidOrders = {{"(memory_order)1", 1, "order1"}, {"(memory_order)7", 7, "order7"}};
const std::vector<Argument> kInvalidScopes = {{"(memory_scope)5", 5, "scope5"}, {"(memory_scope)99", 99, "scope99"}};

std::vector<Argument> scopes_in(OpenCLStd version) {
  std::vector<Argument> scopes = {
      {"memory_scope_work_item", opencl::kWorkItem, "work_item"},
      {"memory_scope_sub_group", opencl::kSubGroup, "sub_group"},
      {"memory_scope_work_group", opencl::kWorkGroup, "work_group"},
      kDeviceScope,
      {"memory_scope_all_svm_devices", opencl::kAllSvmDevices, "all_svm_devices"},
  };
  if (version == CL30) scopes.push_back({"memory_scope_all_devices", opencl::kAllSvmDevices, "all_devices"});
  return scopes;
}

// How the call is spelled: C11 implicit (seq_cst, device), _explicit with an
// order (device scope), _explicit with order(s) and scope; or OpenCL 1.x.
enum class Form { Implicit, ExplicitOrder, ExplicitOrderScope, Legacy };

struct Case {
  std::string family;
  OpenCLStd version = CL30;
  const MemoryModelConfig* config = nullptr;
  Space space = Space::Global;
  // C11 functions.
  const Function* function = nullptr;
  Form form = Form::ExplicitOrderScope;
  Argument order, failure, scope;  // failure: compare-exchange only
  // OpenCL 1.x functions.
  const LegacyFunction* legacy = nullptr;
  std::string legacy_prefix;  // "atomic_" or "atom_"
  std::string legacy_type;    // "int" or "uint"

  std::string object_type() const {
    return legacy ? legacy_type : std::string(function->object_type);
  }
  std::string value_type() const { return legacy ? legacy_type : std::string(function->value_type); }

  // The call, with `object` naming the atomic object.
  std::string call(const std::string& object) const {
    if (legacy) {
      std::string text = legacy_prefix + legacy->name + "(" + object;
      if (legacy->operands >= 1) text += ", 3";
      if (legacy->operands >= 2) text += ", 5";
      return text + ")";
    }
    std::string text = function->name;
    if (form != Form::Implicit) text += "_explicit";
    text += "(" + object;
    if (function->kind == Kind::CompareExchange) text += ", &expected";
    if (function->operand) text += std::string(", ") + function->operand;
    if (form != Form::Implicit) {
      text += ", " + order.spelling;
      if (function->kind == Kind::CompareExchange) text += ", " + failure.spelling;
      if (form == Form::ExplicitOrderScope) text += ", " + scope.spelling;
    }
    return text + ")";
  }

  bool returns_value() const {
    return legacy || (function->kind != Kind::Store);
  }

  // The call stands on line 3 of the source, whichever form it takes.
  std::string source() const {
    const std::string pointer = is_generic(space) ? "" : (is_local(space) ? "__local " : "__global ");
    const std::string object_decl = object_type() + (legacy ? "* " : "* ");
    const std::string statement = returns_value() ? "(int)(" + call("object") + ")" : call("object");
    const std::string body_line_2 = "  " + value_type() + " expected = 2;\n";
    if (is_generic(space)) {
      return "int use(" + object_type() + "* object) {\n" + body_line_2 +
             (returns_value() ? "  return " + statement + ";\n" : "  " + statement + ";\n  return 0;\n") +
             "}\n"
             "__kernel void k(__global " + object_type() + "* g, __local " + object_type() +
             "* l, __global int* out) {\n"
             "  out[get_global_id(0)] = use(" + (space == Space::GenericLocal ? "l" : "g") + ");\n"
             "}\n";
    }
    return "__kernel void k(" + pointer + object_decl + "object, __global int* out) {\n" + body_line_2 +
           (returns_value() ? "  out[get_global_id(0)] = " + statement + ";\n" : "  " + statement + ";\n") + "}\n";
  }

  std::string in_words() const {
    return call(std::string("<") + space_id(space) + " " + object_type() + "*>") + " [" + version_name(version) +
           ", " + config->words + "]";
  }
  std::string test_name() const {
    std::string name;
    if (legacy) {
      name = legacy_prefix + legacy->name + "_" + legacy_type;
    } else {
      name = function->id;
      if (form == Form::Implicit) name += "_implicit";
      if (form != Form::Implicit) name += "_" + order.id;
      if (form != Form::Implicit && function->kind == Kind::CompareExchange) name += "_" + failure.id;
      if (form == Form::ExplicitOrderScope) name += "_" + scope.id;
    }
    name += std::string("_") + space_id(space) + "_" + version_name(version) + "_" + config->id;
    std::erase(name, '.');
    return name;
  }
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.in_words(); }

Case base_case(const std::string& family, OpenCLStd version, const MemoryModelConfig& config, Space space) {
  Case c;
  c.family = family;
  c.version = version;
  c.config = &config;
  c.space = space;
  return c;
}

Case c11_case(const std::string& family, const Function& f, OpenCLStd version, const MemoryModelConfig& config,
              Space space, Form form, Argument order = kNone, Argument failure = kNone, Argument scope = kNone) {
  Case c = base_case(family, version, config, space);
  c.function = &f;
  c.form = form;
  c.order = std::move(order);
  c.failure = std::move(failure);
  c.scope = std::move(scope);
  return c;
}

std::vector<Case> cases_of(const std::string& family) {
  std::vector<Case> cases;
  const std::vector<Argument> scopes = scopes_in(CL30);
  for (const MemoryModelConfig& config : kConfigs) {
    if (family == "operations") {
      // Every single-order function × space × order × scope; invalid orders
      // at device scope, invalid scopes at seq_cst.
      for (const Function& f : kC11Functions)
        for (Space space : {Space::Global, Space::Local}) {
          for (const Argument& order : kOrders)
            for (const Argument& scope : scopes)
              cases.push_back(c11_case(family, f, CL30, config, space, Form::ExplicitOrderScope, order, kNone, scope));
          for (const Argument& order : kInvalidOrders)
            cases.push_back(c11_case(family, f, CL30, config, space, Form::ExplicitOrderScope, order, kNone, kDeviceScope));
          for (const Argument& scope : kInvalidScopes)
            cases.push_back(c11_case(family, f, CL30, config, space, Form::ExplicitOrderScope, kSeqCst, kNone, scope));
        }
    } else if (family == "compare_exchange") {
      // Success × failure × scope for strong; success × failure for weak.
      for (Space space : {Space::Global, Space::Local}) {
        for (const Argument& success : kOrders)
          for (const Argument& failure : kOrders) {
            for (const Argument& scope : scopes)
              cases.push_back(c11_case(family, kCompareExchangeStrong, CL30, config, space, Form::ExplicitOrderScope,
                                       success, failure, scope));
            cases.push_back(c11_case(family, kCompareExchangeWeak, CL30, config, space, Form::ExplicitOrderScope,
                                     success, failure, kDeviceScope));
          }
        for (const Argument& order : kInvalidOrders) {
          cases.push_back(c11_case(family, kCompareExchangeStrong, CL30, config, space, Form::ExplicitOrderScope,
                                   order, kOrders.front(), kDeviceScope));
          cases.push_back(c11_case(family, kCompareExchangeStrong, CL30, config, space, Form::ExplicitOrderScope,
                                   kSeqCst, order, kDeviceScope));
        }
        for (const Argument& scope : kInvalidScopes)
          cases.push_back(c11_case(family, kCompareExchangeStrong, CL30, config, space, Form::ExplicitOrderScope,
                                   kSeqCst, kSeqCst, scope));
      }
    } else if (family == "implicit") {
      // The forms without a scope (device) or without an order (seq_cst), in
      // both OpenCL C versions that have them.
      std::vector<const Function*> functions;
      for (const Function& f : kC11Functions) functions.push_back(&f);
      functions.push_back(&kCompareExchangeStrong);
      functions.push_back(&kCompareExchangeWeak);
      for (OpenCLStd version : {CL20, CL30})
        for (const Function* f : functions)
          for (Space space : {Space::Global, Space::Local}) {
            cases.push_back(c11_case(family, *f, version, config, space, Form::Implicit));
            for (const Argument& order : kOrders)
              cases.push_back(c11_case(family, *f, version, config, space, Form::ExplicitOrder, order,
                                       f->kind == Kind::CompareExchange ? kOrders.front() : kNone));
          }
    } else if (family == "generic") {
      // Through a generic pointer in a helper: clang resolves it once inlined.
      for (const Function& f : kC11Functions)
        for (Space space : {Space::GenericGlobal, Space::GenericLocal})
          for (const Argument& order : kOrders)
            for (const Argument& scope : {kDeviceScope, scopes[2]})
              cases.push_back(c11_case(family, f, CL20, config, space, Form::ExplicitOrderScope, order, kNone, scope));
      for (Space space : {Space::GenericGlobal, Space::GenericLocal})
        cases.push_back(c11_case(family, kCompareExchangeStrong, CL20, config, space, Form::ExplicitOrderScope,
                                 kOrders[3], kOrders[1], kDeviceScope));
    } else if (family == "legacy") {
      for (OpenCLStd version : {CL12, CL20, CL30})
        for (const char* prefix : {"atomic_", "atom_"})
          for (const LegacyFunction& f : kLegacyFunctions)
            for (const char* type : {"int", "uint"})
              for (Space space : {Space::Global, Space::Local}) {
                Case c = base_case(family, version, config, space);
                c.legacy = &f;
                c.legacy_prefix = prefix;
                c.legacy_type = type;
                c.form = Form::Legacy;
                cases.push_back(c);
              }
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------
// The oracle.

struct Atomic {
  spv::Op opcode = spv::Op::OpNop;
  uint32_t scope = 0;
  std::vector<uint32_t> semantics;  // two for a compare-exchange: equal, unequal
};

std::string opcode_name(spv::Op op) {
  switch (op) {
    case spv::Op::OpAtomicLoad: return "OpAtomicLoad";
    case spv::Op::OpAtomicStore: return "OpAtomicStore";
    case spv::Op::OpAtomicExchange: return "OpAtomicExchange";
    case spv::Op::OpAtomicCompareExchange: return "OpAtomicCompareExchange";
    case spv::Op::OpAtomicCompareExchangeWeak: return "OpAtomicCompareExchangeWeak";
    case spv::Op::OpAtomicIIncrement: return "OpAtomicIIncrement";
    case spv::Op::OpAtomicIDecrement: return "OpAtomicIDecrement";
    case spv::Op::OpAtomicIAdd: return "OpAtomicIAdd";
    case spv::Op::OpAtomicISub: return "OpAtomicISub";
    case spv::Op::OpAtomicSMin: return "OpAtomicSMin";
    case spv::Op::OpAtomicUMin: return "OpAtomicUMin";
    case spv::Op::OpAtomicSMax: return "OpAtomicSMax";
    case spv::Op::OpAtomicUMax: return "OpAtomicUMax";
    case spv::Op::OpAtomicAnd: return "OpAtomicAnd";
    case spv::Op::OpAtomicOr: return "OpAtomicOr";
    case spv::Op::OpAtomicXor: return "OpAtomicXor";
    case spv::Op::OpAtomicFlagTestAndSet: return "OpAtomicFlagTestAndSet";
    case spv::Op::OpAtomicFlagClear: return "OpAtomicFlagClear";
    default: return "opcode " + std::to_string(uint32_t(op));
  }
}

// "OpAtomicIAdd Device UniformMemory|AcquireRelease|MakeAvailable|MakeVisible"
std::string describe(const Atomic& a) {
  std::string text = opcode_name(a.opcode) + " " + describe_scope(a.scope);
  for (uint32_t s : a.semantics) text += " " + describe_semantics(s);
  return text;
}

std::string describe_all(const std::vector<Atomic>& atomics) {
  if (atomics.empty()) return "no atomic instruction";
  std::string text;
  for (const Atomic& a : atomics) text += (text.empty() ? "" : "; ") + describe(a);
  return text;
}

bool is_atomic(spv::Op op) {
  return (op >= spv::Op::OpAtomicLoad && op <= spv::Op::OpAtomicXor) || op == spv::Op::OpAtomicFlagTestAndSet ||
         op == spv::Op::OpAtomicFlagClear || op == spv::Op::OpAtomicFAddEXT || op == spv::Op::OpAtomicFMinEXT ||
         op == spv::Op::OpAtomicFMaxEXT;
}

// Every atomic instruction of a module: pointer, scope, semantics... follow the result id.
std::vector<Atomic> atomics_in(std::span<const uint32_t> words) {
  const spirv::Module m = spirv::Module::parse(words);
  auto value = [&](uint32_t id) { return uint32_t(m.constant_value(id).value_or(~0u)); };
  std::vector<Atomic> result;
  for (const spirv::Function& f : m.functions)
    for (const spirv::Instruction& i : f.code) {
      if (!is_atomic(i.opcode)) continue;
      Atomic a{i.opcode, value(i.word(1)), {value(i.word(2))}};
      if (i.opcode == spv::Op::OpAtomicCompareExchange || i.opcode == spv::Op::OpAtomicCompareExchangeWeak)
        a.semantics.push_back(value(i.word(3)));
      result.push_back(a);
    }
  return result;
}

// The width of the integer each atomic instruction acts on; 0 where it is not an integer.
std::vector<uint32_t> atomic_integer_widths(std::span<const uint32_t> words) {
  const spirv::Module m = spirv::Module::parse(words);
  std::vector<uint32_t> widths;
  for (const spirv::Function& f : m.functions) {
    const spirv::ValueTypes types = spirv::value_types(m, f);
    for (const spirv::Instruction& i : f.code) {
      if (!is_atomic(i.opcode)) continue;
      const spirv::Instruction* pointee = m.find_global(m.pointee_of(types.at(i.word(0))));
      widths.push_back(pointee && pointee->opcode == spv::Op::OpTypeInt ? pointee->word(0) : 0);
    }
  }
  return widths;
}

// A compile error at the call whose message mentions `error_topic`, or exactly `atomics`.
struct Expectation {
  std::string error_topic;
  std::vector<Atomic> atomics;
};

Expectation expected_for(const Case& c) {
  const bool vulkan_model = c.config->model == MemoryModel::Vulkan;
  const bool local = is_local(c.space);
  // Scope: local memory is only shared within a work-group, so wider scopes
  // are Workgroup; device → QueueFamily where the Vulkan memory model lacks
  // device scope; all_svm_devices / all_devices → Device (Vulkan has no CrossDevice).
  const uint32_t device_scope = vulkan_model && !c.config->vulkan_device_scope ? kQueueFamily : kDevice;
  const uint32_t storage = local ? kWorkgroupMemory : kUniformMemory;
  // Semantics: none at all when relaxed; else the object's storage class
  // and the ordering, with MakeAvailable for Release and MakeVisible for
  // Acquire under the Vulkan memory model. Never SequentiallyConsistent.
  auto semantics = [&](uint32_t ordering) -> uint32_t {
    if (ordering == 0) return 0;
    uint32_t bits = storage | ordering;
    if (vulkan_model && (ordering & (kRelease | kAcquireRelease))) bits |= kMakeAvailable;
    if (vulkan_model && (ordering & (kAcquire | kAcquireRelease))) bits |= kMakeVisible;
    return bits;
  };

  if (c.legacy) {  // OpenCL 1.x: relaxed, device scope (work-group for local memory)
    const spv::Op op = c.legacy_type == "int" ? c.legacy->signed_opcode : c.legacy->unsigned_opcode;
    Atomic a{op, local ? kWorkgroup : device_scope, {0}};
    if (op == spv::Op::OpAtomicCompareExchange) a.semantics.push_back(0);
    return {"", {a}};
  }

  const Kind kind = c.function->kind;
  const bool implicit_order = c.form == Form::Implicit;
  const uint32_t o = implicit_order ? opencl::kSeqCst : c.order.value;
  const uint32_t fo = implicit_order ? opencl::kSeqCst : c.failure.value;
  const uint32_t s = c.form == Form::ExplicitOrderScope ? c.scope.value : opencl::kDeviceScope;

  // Errors: orders the operation may not take, undefined values, scopes
  // atomics cannot have.
  auto invalid_order = [](uint32_t order) { return order == 1 || order > opencl::kSeqCst; };
  if (kind == Kind::Load && (o == opencl::kRelease || o == opencl::kAcqRel)) return {"atomic load", {}};
  if (kind == Kind::Store && (o == opencl::kAcquire || o == opencl::kAcqRel)) return {"atomic store", {}};
  if (invalid_order(o)) return {"invalid memory_order value", {}};
  if (kind == Kind::CompareExchange) {
    if (fo == opencl::kRelease || fo == opencl::kAcqRel) return {"failure memory_order", {}};
    if (invalid_order(fo)) return {"invalid memory_order value", {}};
    // Stronger: acquire or seq_cst after relaxed, seq_cst after anything but seq_cst.
    if ((o == opencl::kRelaxed && fo != opencl::kRelaxed) || (fo == opencl::kSeqCst && o != opencl::kSeqCst))
      return {"stronger than the success", {}};
  }
  if (s == opencl::kWorkItem) return {"memory_scope_work_item", {}};
  if (s > opencl::kSubGroup) return {"memory_scope", {}};

  uint32_t scope = kWorkgroup;
  if (s == opencl::kSubGroup) scope = kSubgroup;
  else if ((s == opencl::kDeviceScope || s == opencl::kAllSvmDevices) && !local) scope = device_scope;

  // Ordering: a load may only acquire and a store only release, so seq_cst
  // is Acquire on a load and Release on a store; read-modify-writes take
  // AcquireRelease for acq_rel and seq_cst.
  auto ordering = [&](uint32_t order, Kind as) -> uint32_t {
    switch (order) {
      case opencl::kAcquire: return kAcquire;
      case opencl::kRelease: return kRelease;
      case opencl::kAcqRel:
      case opencl::kSeqCst: return as == Kind::Load ? kAcquire : as == Kind::Store ? kRelease : kAcquireRelease;
      default: return 0;
    }
  };
  // release then acquire: the success order acquires too (SPIR-V's Unequal
  // semantics may not be stronger than its Equal semantics).
  const uint32_t success = kind == Kind::CompareExchange && o == opencl::kRelease && fo == opencl::kAcquire
                               ? opencl::kAcqRel
                               : o;
  Atomic a{c.function->opcode, scope, {semantics(ordering(success, kind))}};
  if (kind == Kind::CompareExchange) a.semantics.push_back(semantics(ordering(fo, Kind::Load)));
  return {"", {a}};
}

// ---------------------------------------------------------------------------
// The test.

constexpr const char* kFileName = "golden.cl";

// Whether some line of `diagnostics` is an error on line 3 (where every
// case's call stands) that mentions `topic`.
bool reports_error_at_call(const std::string& diagnostics, const std::string& topic) {
  const std::string location = std::string(kFileName) + ":3:";
  std::istringstream lines(diagnostics);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(location) && line.find(": error:") != std::string::npos &&
        line.find(topic) != std::string::npos)
      return true;
  return false;
}

struct Compiled {
  std::optional<CompileResult> result;
  std::string error;
};

Compiled compile(const std::string& source, OpenCLStd version, const MemoryModelConfig& config) {
  CompileOptions options;
  options.cl_std = version;
  options.memory_model = config.model;
  options.vulkan_device_scope = config.vulkan_device_scope;
  Compiled compiled;
  try {
    compiled.result = compile_opencl(source, kFileName, options);
  } catch (const CompileError& e) {
    compiled.error = e.what();
  }
  return compiled;
}

class AtomicsGolden : public ::testing::TestWithParam<Case> {};

TEST_P(AtomicsGolden, EmitsTheMappedInstruction) {
  const Case& c = GetParam();
  const Expectation expected = expected_for(c);
  const Compiled compiled = compile(c.source(), c.version, *c.config);
  const std::string wanted =
      expected.error_topic.empty() ? describe_all(expected.atomics) : "an error at the call about " + expected.error_topic;
  if (!compiled.result) {
    if (expected.error_topic.empty() || !reports_error_at_call(compiled.error, expected.error_topic))
      ADD_FAILURE() << c.in_words() << ": expected " << wanted << ", got:\n" << compiled.error << "source:\n" << c.source();
    return;
  }
  const std::vector<uint32_t>& words = compiled.result->module.words;
  const std::string got = describe_all(atomics_in(words));
  if (!expected.error_topic.empty() || got != wanted)
    ADD_FAILURE() << c.in_words() << ": expected " << wanted << ", got " << got;
  for (const std::string& problem : vulkan_environment_violations(words, c.config->model))
    ADD_FAILURE() << c.in_words() << ": " << problem;
  // The translator's Kernel SPIR-V holds exactly the builtins' atomic: its
  // own OpenCL atomic mapping never ran.
  if (expected.error_topic.empty()) {
    std::vector<Atomic> kernel_atomics = atomics_in(compiled.result->kernel_spirv);
    if (kernel_atomics.size() != 1)
      ADD_FAILURE() << c.in_words() << ": the translator's module has " << describe_all(kernel_atomics);
  }
}

std::string test_name(const ::testing::TestParamInfo<Case>& info) { return info.param.test_name(); }

INSTANTIATE_TEST_SUITE_P(operations, AtomicsGolden, ::testing::ValuesIn(cases_of("operations")), test_name);
INSTANTIATE_TEST_SUITE_P(compare_exchange, AtomicsGolden, ::testing::ValuesIn(cases_of("compare_exchange")), test_name);
INSTANTIATE_TEST_SUITE_P(implicit, AtomicsGolden, ::testing::ValuesIn(cases_of("implicit")), test_name);
INSTANTIATE_TEST_SUITE_P(generic, AtomicsGolden, ::testing::ValuesIn(cases_of("generic")), test_name);
INSTANTIATE_TEST_SUITE_P(legacy, AtomicsGolden, ::testing::ValuesIn(cases_of("legacy")), test_name);

// ---------------------------------------------------------------------------
// What the cross product does not reach.

const MemoryModelConfig& vulkan_device() { return kConfigs[0]; }

std::vector<uint32_t> compiled_or_fail(const std::string& source, OpenCLStd version,
                                       const MemoryModelConfig& config = vulkan_device(),
                                       ModuleFeatures* features = nullptr) {
  Compiled compiled = compile(source, version, config);
  if (!compiled.result) {
    ADD_FAILURE() << compiled.error << "source:\n" << source;
    return {};
  }
  if (features) *features = compiled.result->module.reflection.features;
  for (const std::string& problem : vulkan_environment_violations(compiled.result->module.words, config.model))
    ADD_FAILURE() << problem << "\nsource:\n" << source;
  return compiled.result->module.words;
}

void expect_error_at_call(const std::string& source, OpenCLStd version, const std::string& topic) {
  Compiled compiled = compile(source, version, vulkan_device());
  EXPECT_FALSE(compiled.result) << "compiled, expected an error about " << topic << "\nsource:\n" << source;
  EXPECT_TRUE(reports_error_at_call(compiled.error, topic)) << "expected an error at " << kFileName << ":3 about "
                                                            << topic << ", got:\n" << compiled.error;
}

// -O0 keeps clang's allocas until clc's own SROA: the address-space
// question is still answered and the same instruction comes out.
TEST(AtomicsGoldenUnoptimized, O0EmitsTheMappedInstruction) {
  int checked = 0;
  for (const char* family : {"operations", "compare_exchange", "generic", "legacy"})
    for (const Case& c : cases_of(family)) {
      const bool representative = c.config == &kConfigs[0] &&
                                  (c.legacy || (c.order.value == opencl::kSeqCst && c.scope.value == opencl::kDeviceScope &&
                                                (c.function->kind != Kind::CompareExchange ||
                                                 c.failure.value == opencl::kAcquire)));
      if (!representative) continue;
      const Expectation expected = expected_for(c);
      CompileOptions options;
      options.cl_std = c.version;
      options.optimize = false;
      try {
        const CompileResult result = compile_opencl(c.source(), kFileName, options);
        EXPECT_EQ(describe_all(atomics_in(result.module.words)), describe_all(expected.atomics)) << c.in_words() << " at -O0";
      } catch (const CompileError& e) {
        ADD_FAILURE() << c.in_words() << " at -O0: " << e.what();
      }
      ++checked;
    }
  EXPECT_GT(checked, 100);
}

// `kernel` compiled (its features in `features`), when it holds exactly one
// atomic instruction and that is `opcode`; empty, and a failure, otherwise.
std::vector<uint32_t> with_one_atomic(const std::string& kernel, OpenCLStd version, spv::Op opcode,
                                      ModuleFeatures* features) {
  const std::vector<uint32_t> words = compiled_or_fail(kernel, version, vulkan_device(), features);
  if (words.empty()) return {};
  const std::vector<Atomic> atomics = atomics_in(words);
  if (atomics.size() != 1 || atomics[0].opcode != opcode) {
    ADD_FAILURE() << "expected one " << opcode_name(opcode) << " in:\n" << disassemble(words) << "source:\n" << kernel;
    return {};
  }
  return words;
}

// 64-bit integer atomics: Int64Atomics, and the feature of the memory they are in.
TEST(AtomicsGoldenInt64, DeclareInt64AtomicsAndTheFeatureOfTheirMemory) {
  struct Int64Case {
    std::string kernel;
    OpenCLStd version;
    spv::Op opcode;
    bool buffer, shared;
  };
  const Int64Case cases[] = {
      {"__kernel void k(__global long* p, __global int* out) {\n  long expected = 2;\n  out[0] = (int)atom_add(p, 3L);\n}\n",
       CL12, spv::Op::OpAtomicIAdd, true, false},
      {"__kernel void k(__local ulong* p, __global int* out) {\n  long expected = 2;\n  out[0] = (int)atom_max(p, 3ul);\n}\n",
       CL12, spv::Op::OpAtomicUMax, false, true},
      {"__kernel void k(__global atomic_long* p, __global int* out) {\n  long expected = 2;\n"
       "  out[0] = (int)atomic_fetch_min_explicit(p, 3L, memory_order_acq_rel, memory_scope_device);\n}\n",
       CL20, spv::Op::OpAtomicSMin, true, false},
      {"__kernel void k(__local atomic_ulong* p, __global int* out) {\n  ulong expected = 2;\n"
       "  out[0] = atomic_compare_exchange_strong(p, &expected, 3ul);\n}\n",
       CL30, spv::Op::OpAtomicCompareExchange, false, true},
      // atomic_uintptr_t with a ptrdiff_t operand.
      {"__kernel void k(__global atomic_uintptr_t* p, __global int* out) {\n  long expected = 2;\n"
       "  out[0] = (int)atomic_fetch_add(p, (ptrdiff_t)-1);\n}\n",
       CL20, spv::Op::OpAtomicIAdd, true, false},
  };
  for (const Int64Case& c : cases) {
    ModuleFeatures features;
    const std::vector<uint32_t> words = with_one_atomic(c.kernel, c.version, c.opcode, &features);
    if (words.empty()) continue;
    EXPECT_TRUE(spirv::Module::parse(words).has_capability(spv::Capability::Int64Atomics)) << c.kernel;
    EXPECT_EQ(features.shader_buffer_int64_atomics, c.buffer) << c.kernel;
    EXPECT_EQ(features.shader_shared_int64_atomics, c.shared) << c.kernel;
    // The reflection file names them, and the host reads them back.
    ModuleReflection reflection;
    reflection.features = features;
    const std::string text = serialize(reflection);
    EXPECT_EQ(text.find("feature shader_buffer_int64_atomics\n") != std::string::npos, c.buffer) << text;
    EXPECT_EQ(text.find("feature shader_shared_int64_atomics\n") != std::string::npos, c.shared) << text;
    EXPECT_TRUE(missing_features(parse_reflection(text).features, features).empty()) << text;
    EXPECT_TRUE(missing_features(features, parse_reflection(text).features).empty()) << text;
  }
  // 32-bit atomics need neither.
  ModuleFeatures features;
  const std::vector<uint32_t> words =
      compiled_or_fail("__kernel void k(__global int* p) {\n  atomic_inc(p);\n}\n", CL12, vulkan_device(), &features);
  EXPECT_FALSE(spirv::Module::parse(words).has_capability(spv::Capability::Int64Atomics));
  EXPECT_FALSE(features.shader_buffer_int64_atomics || features.shader_shared_int64_atomics);
}

// Floats and doubles move as their bits: no float atomics feature needed.
TEST(AtomicsGoldenFloat, LoadsStoresExchangesAndCompareExchangesUseTheBits) {
  struct FloatCase {
    std::string kernel;
    OpenCLStd version;
    spv::Op opcode;
    uint32_t width;  // of the integer the atomic acts on
  };
  const FloatCase cases[] = {
      {"__kernel void k(__global float* p, __global float* out) {\n  float expected = 2;\n"
       "  out[0] = atomic_xchg(p, 1.5f);\n}\n", CL12, spv::Op::OpAtomicExchange, 32},
      {"__kernel void k(__global atomic_float* p, __global float* out) {\n  float expected = 2;\n"
       "  out[0] = atomic_load(p);\n}\n", CL20, spv::Op::OpAtomicLoad, 32},
      {"__kernel void k(__global atomic_float* p, __global float* out) {\n  float expected = 2;\n"
       "  out[0] = atomic_compare_exchange_weak(p, &expected, 3.0f);\n}\n", CL20, spv::Op::OpAtomicCompareExchange, 32},
      {"__kernel void k(__global atomic_double* p, __global double* out) {\n  double expected = 2;\n"
       "  atomic_store(p, 1.0);\n}\n", CL30, spv::Op::OpAtomicStore, 64},
  };
  for (const FloatCase& c : cases) {
    const std::vector<uint32_t> words = compiled_or_fail(c.kernel, c.version);
    if (words.empty()) continue;
    const std::vector<Atomic> atomics = atomics_in(words);
    ASSERT_EQ(atomics.size(), 1u) << c.kernel;
    EXPECT_EQ(opcode_name(atomics[0].opcode), opcode_name(c.opcode)) << c.kernel;
    EXPECT_EQ(atomic_integer_widths(words), std::vector<uint32_t>{c.width}) << disassemble(words);
  }
}

// atomic_init is not atomic: a plain store (read back with a relaxed load
// on __local memory, where a store nobody reads would be dead).
TEST(AtomicsGoldenInit, AtomicInitIsAPlainStore) {
  const std::vector<uint32_t> global = compiled_or_fail(
      "__kernel void k(__global atomic_int* p) {\n  int expected = 2;\n  atomic_init(p, 5);\n}\n", CL20);
  EXPECT_TRUE(atomics_in(global).empty()) << disassemble(global);
  EXPECT_NE(disassemble(global).find("OpStore"), std::string::npos) << disassemble(global);
  const std::vector<uint32_t> local = compiled_or_fail(
      "__kernel void k(__local atomic_int* p, __global int* out) {\n  int expected = 2;\n  atomic_init(p, 5);\n"
      "  out[0] = atomic_load_explicit(p, memory_order_relaxed, memory_scope_work_group);\n}\n",
      CL20);
  EXPECT_EQ(describe_all(atomics_in(local)), "OpAtomicLoad Workgroup None") << disassemble(local);
  EXPECT_NE(disassemble(local).find("OpStore"), std::string::npos) << disassemble(local);
}

// Errors the cross product cannot spell: one per rule, at the call.
TEST(AtomicsGoldenErrors, PrivateObjectIsAnError) {
  expect_error_at_call("__kernel void k(__global int* out) {\n  atomic_int object;\n"
                       "  out[0] = atomic_fetch_add(&object, 1);\n}\n",
                       CL20, "__private");
}

TEST(AtomicsGoldenErrors, GenericPointerToEitherSpaceIsAnError) {
  expect_error_at_call("int use(atomic_int* object) {\n  int expected = 2;\n  return atomic_load(object);\n}\n"
                       "__kernel void k(__global atomic_int* g, __local atomic_int* l, __global int* out) {\n"
                       "  out[0] = use(out[1] ? (atomic_int*)g : (atomic_int*)l);\n}\n",
                       CL20, "generic pointer");
}

TEST(AtomicsGoldenErrors, NonConstantOrderIsAnError) {
  expect_error_at_call("__kernel void k(__global atomic_int* p, __global int* out, int order) {\n  int expected = 2;\n"
                       "  out[0] = atomic_fetch_add_explicit(p, 1, (memory_order)order);\n}\n",
                       CL20, "compile-time constants");
  expect_error_at_call("__kernel void k(__global atomic_int* p, __global int* out, int scope) {\n  int expected = 2;\n"
                       "  out[0] = atomic_load_explicit(p, memory_order_relaxed, (memory_scope)scope);\n}\n",
                       CL20, "compile-time constants");
}

// On __local memory the float atomics themselves (a Workgroup pointer
// cannot be cast to view the bits), which need VK_EXT_shader_atomic_float:
// the reflection names the feature, for float or double, and only there.
TEST(AtomicsGoldenFloat, LocalLoadsStoresAndExchangesAreFloatAtomicsThatNeedTheFeature) {
  struct LocalCase {
    std::string kernel;
    OpenCLStd version;
    spv::Op opcode;
    bool float64;
  };
  const LocalCase cases[] = {
      {"__kernel void k(__local float* p, __global float* out) {\n  float expected = 2;\n"
       "  out[0] = atomic_xchg(p, 1.5f);\n}\n", CL12, spv::Op::OpAtomicExchange, false},
      {"__kernel void k(__local atomic_float* p, __global float* out) {\n  float expected = 2;\n"
       "  out[0] = atomic_load_explicit(p, memory_order_acquire, memory_scope_work_group);\n}\n",
       CL20, spv::Op::OpAtomicLoad, false},
      {"__kernel void k(__local atomic_float* p, __global float* out) {\n  float expected = 2;\n"
       "  atomic_store_explicit(p, out[0], memory_order_release, memory_scope_work_group);\n}\n",
       CL20, spv::Op::OpAtomicStore, false},
      {"__kernel void k(__local atomic_double* p, __global double* out) {\n  double expected = 2;\n"
       "  out[0] = atomic_exchange(p, 1.0);\n}\n", CL30, spv::Op::OpAtomicExchange, true},
  };
  for (const LocalCase& c : cases) {
    ModuleFeatures features;
    const std::vector<uint32_t> words = with_one_atomic(c.kernel, c.version, c.opcode, &features);
    if (words.empty()) continue;
    EXPECT_EQ(atomic_integer_widths(words), std::vector<uint32_t>{0}) << disassemble(words);  // the value, not its bits
    EXPECT_EQ(features.shader_shared_float32_atomics, !c.float64) << c.kernel;
    EXPECT_EQ(features.shader_shared_float64_atomics, c.float64) << c.kernel;
    ModuleReflection reflection;
    reflection.features = features;
    const std::string text = serialize(reflection);
    EXPECT_NE(text.find(c.float64 ? "feature shader_shared_float64_atomics\n" : "feature shader_shared_float32_atomics\n"),
              std::string::npos) << text;
    EXPECT_TRUE(missing_features(parse_reflection(text).features, features).empty()) << text;
  }
  // On __global memory, the bits: no feature.
  ModuleFeatures features;
  compiled_or_fail("__kernel void k(__global float* p, __global float* out) {\n  out[0] = atomic_xchg(p, 1.5f);\n}\n",
                   CL12, vulkan_device(), &features);
  EXPECT_FALSE(features.shader_shared_float32_atomics || features.shader_shared_float64_atomics);
}

TEST(AtomicsGoldenErrors, FloatCompareExchangeOnLocalMemoryIsAnError) {
  expect_error_at_call("__kernel void k(__local atomic_float* p, __global float* out) {\n  float expected = 2;\n"
                       "  out[0] = atomic_compare_exchange_strong(p, &expected, 1.5f);\n}\n",
                       CL20, "compare-exchange on __local memory is not supported");
}

TEST(AtomicsGoldenErrors, FloatArithmeticIsNotSupported) {
  expect_error_at_call("__kernel void k(__global atomic_float* p, __global float* out) {\n  float expected = 2;\n"
                       "  out[0] = atomic_fetch_add(p, 1.0f);\n}\n",
                       CL30, "'atomic_fetch_add' is not supported");
}

// The generated cases cover each rule; this names them, so that a rule that
// stopped producing its error fails here by name.
TEST(AtomicsGoldenErrors, EveryRuleHasGeneratedErrorCases) {
  std::vector<std::string> topics;
  for (const char* family : {"operations", "compare_exchange", "implicit", "generic", "legacy"})
    for (const Case& c : cases_of(family))
      if (std::string topic = expected_for(c).error_topic; !topic.empty()) topics.push_back(topic);
  for (const char* rule : {"atomic load", "atomic store", "invalid memory_order value", "failure memory_order",
                           "stronger than the success", "memory_scope_work_item", "memory_scope"})
    EXPECT_NE(std::count(topics.begin(), topics.end(), rule), 0) << rule;
}

// The oracle's environment checks can fail.
TEST(AtomicsGoldenRules, RejectWhatVulkanForbids) {
  EXPECT_EQ(semantics_problem(0, MemoryModel::Vulkan), "");
  EXPECT_EQ(semantics_problem(kWorkgroupMemory | kAcquire | kMakeVisible, MemoryModel::Vulkan), "");
  EXPECT_NE(semantics_problem(kAcquire, MemoryModel::Vulkan), "");
  EXPECT_NE(semantics_problem(kUniformMemory, MemoryModel::Vulkan), "");
  EXPECT_NE(semantics_problem(kUniformMemory | kSequentiallyConsistent, MemoryModel::Vulkan), "");
  EXPECT_NE(semantics_problem(kCrossWorkgroupMemory | kAcquire, MemoryModel::Vulkan), "");
  EXPECT_NE(semantics_problem(kUniformMemory | kRelease | kMakeAvailable, MemoryModel::GLSL450), "");
}

}  // namespace
}  // namespace vkcl::testing
