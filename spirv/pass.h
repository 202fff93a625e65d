// The pass interface and the state passes share while lowering one module.
//
// Passes run in the order of pass_registry.def. Each pass file states
// its contract on top: what it expects, what it rewrites, what it leaves for
// later passes. A pass reports unsupported input by throwing CompileError.
#pragma once

#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lower_to_vulkan.h"
#include "module.h"
#include "reflection.h"

namespace vkcl::spirv {

// One push-constant block per entry point, built up member by member by the
// passes that need one, and declared by emit_push_constant_blocks (which
// moves the arguments to an argument buffer when the block would be too big
// for every device).
struct PushConstantBlock {
  uint32_t struct_type = 0;   // ids reserved up front so code can refer to them early
  uint32_t pointer_type = 0;
  uint32_t variable = 0;
  std::vector<uint32_t> member_types;
  std::vector<uint32_t> member_offsets;
  std::vector<uint32_t> member_alignments;
  uint32_t size = 0;
  // Members [0, argument_members) hold the kernel's arguments, laid out from
  // offset 0 up to argument_bytes (lower_kernel_arguments adds them first);
  // the ND-range fields follow.
  uint32_t argument_members = 0;
  uint32_t argument_bytes = 0;

  // Appends a member with the given layout and returns its index.
  uint32_t add_member(uint32_t type, uint32_t size_bytes, uint32_t alignment);
};

struct KernelState {
  uint32_t function = 0;
  size_t reflection_index = 0;
  PushConstantBlock push_constants;
};

struct LoweringContext {
  LoweringOptions options;
  ModuleReflection reflection;
  std::vector<KernelState> kernels;
  uint32_t next_spec_id = kFirstLocalArgSpecId;
  uint32_t workgroup_size = 0;  // the WorkgroupSize spec-constant composite (v3uint)
  // Parameters declared restrict (the translator's FuncParamAttr NoAlias),
  // recorded by strip_kernel_decorations before it drops the decoration.
  std::unordered_set<uint32_t> restrict_parameters;
  // Pointer parameters bind_storage_buffers bound, and their bindings.
  std::unordered_map<uint32_t, uint32_t> storage_buffer_bindings;

  KernelReflection& reflection_of(const KernelState& kernel) { return reflection.kernels[kernel.reflection_index]; }
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual void run(Module& module, LoweringContext& context) = 0;
};

// OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain or OpInBoundsPtrAccessChain.
inline bool is_chain(Op op) {
  return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain || op == Op::OpPtrAccessChain ||
         op == Op::OpInBoundsPtrAccessChain;
}

// Every atomic instruction the translator or the lowering can produce:
// OpAtomicLoad to OpAtomicXor, the Kernel-only flag instructions, and
// SPV_EXT_shader_atomic_float_add / _min_max. Words after the result id (or
// from the start where there is none): pointer, scope, semantics (a
// compare-exchange has a second), values.
inline bool is_atomic(Op op) {
  switch (op) {
    case Op::OpAtomicLoad: case Op::OpAtomicStore: case Op::OpAtomicExchange: case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak: case Op::OpAtomicIIncrement: case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd: case Op::OpAtomicISub: case Op::OpAtomicSMin: case Op::OpAtomicUMin:
    case Op::OpAtomicSMax: case Op::OpAtomicUMax: case Op::OpAtomicAnd: case Op::OpAtomicOr: case Op::OpAtomicXor:
    case Op::OpAtomicFlagTestAndSet: case Op::OpAtomicFlagClear:
    case Op::OpAtomicFAddEXT: case Op::OpAtomicFMinEXT: case Op::OpAtomicFMaxEXT:
      return true;
    default:
      return false;
  }
}

// Where each value of a function is defined and used: positions in
// Function::code, found once. Valid while the code keeps its order: the
// passes that use it collect what they add as InsertionsAfter and splice it
// in at the end.
class DefUse {
 public:
  explicit DefUse(const Function& function);
  std::optional<size_t> position(uint32_t id) const;
  // The defining instruction, or nullptr for a global or an unknown id.
  const Instruction* definition(uint32_t id) const;
  // The positions of the instructions that use `id` as an operand (not as
  // their type), once per operand: an instruction that uses it twice is
  // listed twice.
  const std::vector<size_t>& uses(uint32_t id) const;

 private:
  const Function& function_;
  std::unordered_map<uint32_t, size_t> position_;
  std::unordered_map<uint32_t, std::vector<size_t>> uses_;
};

// Shared helpers for passes that add code to a kernel.
using ValueTypes = std::unordered_map<uint32_t, uint32_t>;
// The result type of every value `function` can use: its own results and the module's globals.
ValueTypes value_types(const Module& module, const Function& function);
Function& function_by_id(Module& module, uint32_t id);
// Index in `function.code` where code that must run first can be inserted:
// after the entry block's label and its OpVariable instructions.
size_t entry_insertion_point(const Function& function);
// Instructions a pass adds right after existing ones, by the existing one's
// position in Function::code (so each is defined wherever that one is).
using InsertionsAfter = std::unordered_map<size_t, std::vector<Instruction>>;
// The values that nothing in `function` or `insertions` uses, found from
// `candidates` (values whose uses a pass replaced) and then their operands,
// among the instructions `removable` accepts: a pass's own dead-code
// elimination, since the optimizer does not run on every module (-O0).
std::unordered_set<uint32_t> unused_values(const Function& function, const InsertionsAfter& insertions,
                                           std::vector<uint32_t> candidates, const std::function<bool(Op)>& removable);
// Rebuilds `function` with `insertions` in place and the definitions of
// `dead` removed, with their names and decorations.
void splice(Module& module, Function& function, InsertionsAfter& insertions, const std::unordered_set<uint32_t>& dead);
// Emits `OpAccessChain` + `OpLoad` of push-constant member `member`; returns the loaded id
// (or `result_id` when given).
uint32_t load_push_constant(Module& module, KernelState& kernel, uint32_t member, std::vector<Instruction>& out,
                            uint32_t result_id = 0);

}  // namespace vkcl::spirv
