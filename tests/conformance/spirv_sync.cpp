#include "spirv_sync.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace vkcl::conformance {
namespace {

constexpr uint32_t OpEntryPoint = 15, OpConstant = 43, OpFunction = 54, OpFunctionEnd = 56, OpFunctionCall = 57;
constexpr uint32_t OpAtomicLoad = 227, OpAtomicStore = 228, OpAtomicExchange = 229, OpAtomicCompareExchange = 230,
                   OpAtomicCompareExchangeWeak = 231, OpAtomicIIncrement = 232, OpAtomicXor = 242,
                   OpAtomicFlagTestAndSet = 318, OpAtomicFlagClear = 319;

struct Instruction {
  size_t at;  // word offset in the module
  uint32_t opcode, count;
};

std::vector<Instruction> instructions(std::span<const uint32_t> module) {
  if (module.size() < 5 || module[0] != 0x07230203u) throw std::runtime_error("not a SPIR-V module");
  std::vector<Instruction> all;
  for (size_t at = 5; at < module.size();) {
    const uint32_t count = module[at] >> 16;
    if (count == 0 || at + count > module.size()) throw std::runtime_error("malformed SPIR-V module");
    all.push_back({at, module[at] & 0xFFFFu, count});
    at += count;
  }
  return all;
}

std::string literal_string(std::span<const uint32_t> words) {
  std::string s;
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((w >> (8 * b)) & 0xFF);
      if (c == '\0') return s;
      s += c;
    }
  return s;
}

// Operand positions (word index within the instruction) of an instruction's
// scopes and semantics; empty when it has none.
struct Operands {
  int execution_scope = -1, memory_scope = -1, semantics = -1, semantics2 = -1;
};
Operands operands_of(uint32_t opcode) {
  switch (opcode) {
    case spv::OpControlBarrier: return {1, 2, 3};
    case spv::OpMemoryBarrier: return {-1, 1, 2};
    case OpAtomicStore: return {-1, 2, 3};
    case OpAtomicFlagClear: return {-1, 2, 3};
    case OpAtomicCompareExchange:
    case OpAtomicCompareExchangeWeak: return {-1, 4, 5, 6};
    default:
      if (opcode == OpAtomicLoad || opcode == OpAtomicExchange || (opcode >= OpAtomicIIncrement && opcode <= OpAtomicXor) ||
          opcode == OpAtomicFlagTestAndSet)
        return {-1, 4, 5};
      return {};
  }
}

struct Reader {
  std::span<const uint32_t> module;
  std::vector<Instruction> all;
  std::map<uint32_t, uint32_t> constants;       // id -> value (32-bit OpConstant)
  std::map<uint32_t, size_t> constant_at;       // id -> index into all
  std::map<uint32_t, size_t> function_at;       // id -> index of OpFunction
  std::map<std::string, uint32_t> entry_points;  // name -> function id

  explicit Reader(std::span<const uint32_t> m) : module(m), all(instructions(m)) {
    for (size_t i = 0; i < all.size(); ++i) {
      const Instruction& in = all[i];
      const uint32_t* w = &module[in.at];
      if (in.opcode == OpConstant && in.count == 4) {
        constants[w[2]] = w[3];
        constant_at[w[2]] = i;
      } else if (in.opcode == OpFunction) {
        function_at[w[2]] = i;
      } else if (in.opcode == OpEntryPoint) {
        entry_points[literal_string(std::span(w + 3, in.count - 3))] = w[2];
      }
    }
  }

  uint32_t constant(uint32_t id) const {
    auto it = constants.find(id);
    if (it == constants.end()) throw std::runtime_error("a scope or semantics operand is not a constant");
    return it->second;
  }

  // Indices (into all) of the instructions of `kernel`'s function and its callees.
  std::vector<size_t> body_of(std::string_view kernel) const {
    auto entry = entry_points.find(std::string(kernel));
    if (entry == entry_points.end()) throw std::runtime_error("no entry point " + std::string(kernel));
    std::vector<size_t> body;
    std::set<uint32_t> seen;
    std::vector<uint32_t> pending{entry->second};
    while (!pending.empty()) {
      const uint32_t function = pending.back();
      pending.pop_back();
      if (!seen.insert(function).second) continue;
      auto start = function_at.find(function);
      if (start == function_at.end()) throw std::runtime_error("call to an undefined function");
      for (size_t i = start->second; i < all.size() && all[i].opcode != OpFunctionEnd; ++i) {
        body.push_back(i);
        if (all[i].opcode == OpFunctionCall) pending.push_back(module[all[i].at + 3]);
      }
    }
    std::sort(body.begin(), body.end());
    return body;
  }

  std::optional<SyncInstruction> sync_at(size_t i) const {
    const Instruction& in = all[i];
    const Operands o = operands_of(in.opcode);
    if (o.memory_scope < 0) return std::nullopt;
    const uint32_t* w = &module[in.at];
    SyncInstruction s;
    s.opcode = in.opcode;
    if (o.execution_scope >= 0) s.execution_scope = constant(w[o.execution_scope]);
    s.memory_scope = constant(w[o.memory_scope]);
    s.semantics = constant(w[o.semantics]);
    const bool barrier = in.opcode == spv::OpControlBarrier || in.opcode == spv::OpMemoryBarrier;
    if (!barrier && (s.semantics & spv::kOrderingBits) == 0) return std::nullopt;
    return s;
  }
};

const char* opcode_name(uint32_t opcode) {
  switch (opcode) {
    case spv::OpControlBarrier: return "OpControlBarrier";
    case spv::OpMemoryBarrier: return "OpMemoryBarrier";
    case OpAtomicLoad: return "OpAtomicLoad";
    case OpAtomicStore: return "OpAtomicStore";
    case OpAtomicExchange: return "OpAtomicExchange";
    case OpAtomicCompareExchange: return "OpAtomicCompareExchange";
    case OpAtomicCompareExchangeWeak: return "OpAtomicCompareExchangeWeak";
    case OpAtomicIIncrement: return "OpAtomicIIncrement";
    case OpAtomicIIncrement + 1: return "OpAtomicIDecrement";
    case OpAtomicIIncrement + 2: return "OpAtomicIAdd";
    case OpAtomicIIncrement + 3: return "OpAtomicISub";
    default: return "OpAtomic*";
  }
}

}  // namespace

std::vector<SyncInstruction> synchronization_of(std::span<const uint32_t> module, std::string_view kernel) {
  Reader reader(module);
  std::vector<SyncInstruction> found;
  for (size_t i : reader.body_of(kernel))
    if (auto s = reader.sync_at(i)) found.push_back(*s);
  return found;
}

std::string describe_scope(uint32_t scope) {
  switch (scope) {
    case 0: return "CrossDevice";
    case spv::ScopeDevice:
    case spv::ScopeQueueFamily: return "Device";
    case spv::ScopeWorkgroup: return "Workgroup";
    case spv::ScopeSubgroup: return "Subgroup";
    case 4: return "Invocation";
    default: return "Scope(" + std::to_string(scope) + ")";
  }
}

std::string describe_semantics(uint32_t semantics) {
  static const std::pair<uint32_t, const char*> names[] = {
      {spv::UniformMemory, "UniformMemory"}, {spv::WorkgroupMemory, "WorkgroupMemory"},
      {spv::CrossWorkgroupMemory, "CrossWorkgroupMemory"}, {spv::ImageMemory, "ImageMemory"},
      {spv::Acquire, "Acquire"}, {spv::Release, "Release"}, {spv::AcquireRelease, "AcquireRelease"},
      {spv::SequentiallyConsistent, "SequentiallyConsistent"}};
  std::string s;
  for (auto [bit, name] : names)
    if (semantics & bit) {
      if (!s.empty()) s += '|';
      s += name;
    }
  return s.empty() ? "None" : s;
}

std::string describe(const SyncInstruction& in) {
  std::string s = opcode_name(in.opcode);
  if (in.opcode == spv::OpControlBarrier) s += " " + describe_scope(in.execution_scope);
  s += " " + describe_scope(in.memory_scope);
  s += " " + describe_semantics(in.semantics & (spv::kStorageBits | spv::kOrderingBits));
  return s;
}

std::vector<uint32_t> remap_synchronization(
    std::span<const uint32_t> module, std::string_view kernel,
    const std::function<std::optional<ScopeAndSemantics>(const SyncInstruction&)>& change) {
  Reader reader(module);
  std::vector<uint32_t> words(module.begin(), module.end());
  // New constants, each inserted after the constant it replaces (same type).
  std::map<size_t, std::vector<uint32_t>> inserted;  // instruction index -> words to insert after it
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> made;  // (type, value) -> id
  uint32_t bound = words[3];
  auto constant_like = [&](uint32_t old_id, uint32_t value) {
    const size_t at = reader.constant_at.at(old_id);
    const uint32_t type = module[reader.all[at].at + 1];
    auto key = std::make_pair(type, value);
    if (auto it = made.find(key); it != made.end()) return it->second;
    for (const auto& [existing, index] : reader.constant_at)
      if (module[reader.all[index].at + 1] == type && reader.constants.at(existing) == value) return made[key] = existing;
    const uint32_t id = bound++;
    auto& extra = inserted[at];
    extra.insert(extra.end(), {(4u << 16) | OpConstant, type, id, value});
    made[key] = id;
    return id;
  };
  for (size_t i : reader.body_of(kernel)) {
    auto s = reader.sync_at(i);
    if (!s) continue;
    auto to = change(*s);
    if (!to) continue;
    const Operands o = operands_of(reader.all[i].opcode);
    const size_t at = reader.all[i].at;
    words[at + o.memory_scope] = constant_like(module[at + o.memory_scope], to->memory_scope);
    words[at + o.semantics] = constant_like(module[at + o.semantics], to->semantics);
  }
  words[3] = bound;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (size_t i = 0; i < reader.all.size(); ++i) {
    const Instruction& in = reader.all[i];
    out.insert(out.end(), words.begin() + in.at, words.begin() + in.at + in.count);
    if (auto it = inserted.find(i); it != inserted.end()) out.insert(out.end(), it->second.begin(), it->second.end());
  }
  return out;
}

}  // namespace vkcl::conformance
