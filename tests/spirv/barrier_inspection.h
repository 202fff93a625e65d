// Reads the barriers of a lowered module back as numbers, for golden tests.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vkcl::testing {

struct Barrier {
  bool control = false;        // OpControlBarrier (true) or OpMemoryBarrier
  uint32_t execution_scope = 0;  // OpControlBarrier only
  uint32_t memory_scope = 0;
  uint32_t semantics = 0;
};

std::vector<Barrier> barriers_in(std::span<const uint32_t> module);

// The scope and memory-semantics operands of every instruction that has them:
// barriers, atomics and group operations.
struct SynchronizationOperands {
  std::vector<uint32_t> execution_scopes;
  std::vector<uint32_t> memory_scopes;
  std::vector<uint32_t> semantics;
};
SynchronizationOperands synchronization_operands_in(std::span<const uint32_t> module);
std::vector<uint32_t> all_semantics_in(std::span<const uint32_t> module);
// "OpControlBarrier Workgroup Workgroup WorkgroupMemory|AcquireRelease"
std::string describe(const Barrier& barrier);
std::string describe_semantics(uint32_t semantics);
std::string describe_scope(uint32_t scope);  // "Workgroup"
std::string disassemble(std::span<const uint32_t> module);
// The disassembly without its header, one instruction a line, with the names OpName gives.
std::vector<std::string> disassembled_lines(std::span<const uint32_t> module);

}  // namespace vkcl::testing
