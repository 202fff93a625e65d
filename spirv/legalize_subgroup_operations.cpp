// legalize_subgroup_operations: the GroupNonUniform instructions of the
// sub-group functions (builtins/subgroups.cl) made valid for Vulkan 1.1, and
// the device features they need.
//
//  - Every OpGroupNonUniform* must have the constant scope Subgroup (builtins/
//    never emits another; anything else is a CompileError).
//  - OpGroupNonUniformBroadcast whose id is not a constant (SPIR-V 1.3
//    requires one) becomes OpGroupNonUniformShuffle with the same operands:
//    OpenCL requires the id to be the same for the whole sub-group, and a
//    shuffle with a uniform id is a broadcast.
//  - A ClusteredReduce needs a constant power-of-two cluster size
//    (CompileError otherwise, naming the function).
//  - The GroupNonUniform* capabilities are recomputed from the instructions
//    that remain (a declared capability needs the device feature even when
//    unused), and each instruction sets the ModuleFeatures the host checks
//    against VkPhysicalDeviceSubgroupProperties::supportedOperations:
//      Elect                                 subgroup_basic
//      All, Any, AllEqual                    subgroup_vote
//      Broadcast, BroadcastFirst, Ballot*    subgroup_ballot
//      Shuffle, ShuffleXor                   subgroup_shuffle
//      ShuffleUp, ShuffleDown                subgroup_shuffle_relative
//      arithmetic: Reduce, scans             subgroup_arithmetic
//      arithmetic: ClusteredReduce           subgroup_clustered
//    and 8-, 16- or 64-bit integers or 16-bit floats (or vectors of them) as
//    the operated-on type: subgroup_extended_types (shaderSubgroupExtendedTypes).
// Quad operations and partitioned operations never come from builtins/ and
// are rejected, as are OpGroupNonUniformPartitionNV and
// OpGroupNonUniformRotateKHR, which lie outside the core range of opcodes.
#include <algorithm>
#include <set>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::Capability;

enum class Kind { Basic, Vote, Ballot, Shuffle, ShuffleRelative, Arithmetic, Quad, Other };

Kind kind_of(Op op) {
  switch (op) {
    case Op::OpGroupNonUniformElect: return Kind::Basic;
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
    case Op::OpGroupNonUniformAllEqual: return Kind::Vote;
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformBallot:
    case Op::OpGroupNonUniformInverseBallot:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB: return Kind::Ballot;
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor: return Kind::Shuffle;
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown: return Kind::ShuffleRelative;
    case Op::OpGroupNonUniformIAdd:
    case Op::OpGroupNonUniformFAdd:
    case Op::OpGroupNonUniformIMul:
    case Op::OpGroupNonUniformFMul:
    case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformFMin:
    case Op::OpGroupNonUniformSMax:
    case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformFMax:
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor:
    case Op::OpGroupNonUniformLogicalAnd:
    case Op::OpGroupNonUniformLogicalOr:
    case Op::OpGroupNonUniformLogicalXor: return Kind::Arithmetic;
    case Op::OpGroupNonUniformQuadBroadcast:
    case Op::OpGroupNonUniformQuadSwap: return Kind::Quad;
    default: return Kind::Other;
  }
}

bool is_group_non_uniform(Op op) {
  return uint32_t(op) >= uint32_t(Op::OpGroupNonUniformElect) && uint32_t(op) <= uint32_t(Op::OpGroupNonUniformQuadSwap);
}

bool is_subgroup_capability(Capability c) {
  switch (c) {
    case Capability::GroupNonUniformVote: case Capability::GroupNonUniformArithmetic:
    case Capability::GroupNonUniformBallot: case Capability::GroupNonUniformShuffle:
    case Capability::GroupNonUniformShuffleRelative: case Capability::GroupNonUniformClustered:
    case Capability::GroupNonUniformQuad: case Capability::GroupNonUniformPartitionedNV:
      return true;
    default:
      return false;
  }
}

// A readable name for diagnostics: "OpGroupNonUniformIAdd".
std::string op_name(Op op) {
  switch (kind_of(op)) {
    case Kind::Arithmetic: return "a sub-group reduction or scan";
    case Kind::Ballot: return "a sub-group ballot or broadcast";
    case Kind::Shuffle: case Kind::ShuffleRelative: return "a sub-group shuffle";
    case Kind::Vote: return "a sub-group vote";
    default: return "a sub-group function";
  }
}

class LegalizeSubgroupOperations final : public Pass {
 public:
  std::string_view name() const override { return "legalize_subgroup_operations"; }

  void run(Module& m, LoweringContext& context) override {
    ModuleFeatures& features = context.reflection.features;
    std::set<Capability> needed;
    bool any = false;
    for (Function& f : m.functions) {
      ValueTypes types = value_types(m, f);
      for (Instruction& i : f.code) {
        if (i.opcode == Op::OpGroupNonUniformPartitionNV || i.opcode == Op::OpGroupNonUniformRotateKHR)
          throw ProgramError("sub-group instruction " + std::to_string(uint32_t(i.opcode)) + " is not supported");
        if (!is_group_non_uniform(i.opcode)) continue;
        any = true;
        check_scope(m, i);
        if (i.opcode == Op::OpGroupNonUniformBroadcast && !is_constant(m, i.word(2))) i.opcode = Op::OpGroupNonUniformShuffle;
        switch (kind_of(i.opcode)) {
          case Kind::Basic: break;
          case Kind::Vote: needed.insert(Capability::GroupNonUniformVote); features.subgroup_vote = true; break;
          case Kind::Ballot: needed.insert(Capability::GroupNonUniformBallot); features.subgroup_ballot = true; break;
          case Kind::Shuffle: needed.insert(Capability::GroupNonUniformShuffle); features.subgroup_shuffle = true; break;
          case Kind::ShuffleRelative:
            needed.insert(Capability::GroupNonUniformShuffleRelative);
            features.subgroup_shuffle_relative = true;
            break;
          case Kind::Arithmetic:
            if (!is_core_group_operation(spv::GroupOperation(i.word(1))))
              throw ProgramError(op_name(i.opcode) + " with group operation " + std::to_string(i.word(1)) +
                                 " (a partitioned one) is not supported");
            if (spv::GroupOperation(i.word(1)) == spv::GroupOperation::ClusteredReduce) {
              check_cluster_size(m, i);
              needed.insert(Capability::GroupNonUniformClustered);
              features.subgroup_clustered = true;
            } else {
              needed.insert(Capability::GroupNonUniformArithmetic);
              features.subgroup_arithmetic = true;
            }
            break;
          case Kind::Quad:
          case Kind::Other:
            throw ProgramError("sub-group instruction " + std::to_string(uint32_t(i.opcode)) +
                               " is not supported");
        }
        // The type operated on: the result's, except for the instructions whose
        // result is a bool or a count (AllEqual: the value's).
        uint32_t operated = i.opcode == Op::OpGroupNonUniformAllEqual ? types.at(i.word(1)) : i.type_id;
        if (is_extended_type(m, operated)) features.subgroup_extended_types = true;
      }
    }
    std::erase_if(m.capabilities, [](const Instruction& c) { return is_subgroup_capability(Capability(c.word(0))); });
    if (any) {
      m.add_capability(Capability::GroupNonUniform);
      features.subgroup_basic = true;
    }
    for (Capability c : needed) m.add_capability(c);
  }

 private:
  static bool is_core_group_operation(spv::GroupOperation operation) {
    return operation == spv::GroupOperation::Reduce || operation == spv::GroupOperation::InclusiveScan ||
           operation == spv::GroupOperation::ExclusiveScan || operation == spv::GroupOperation::ClusteredReduce;
  }

  static bool is_constant(const Module& m, uint32_t id) {
    const Instruction* c = m.find_global(id);
    return c && (c->opcode == Op::OpConstant || c->opcode == Op::OpConstantNull || c->opcode == Op::OpSpecConstant ||
                 c->opcode == Op::OpSpecConstantOp);
  }

  static void check_scope(const Module& m, const Instruction& i) {
    if (m.constant_value(i.word(0)) != uint64_t(spv::Scope::Subgroup))
      throw ProgramError(op_name(i.opcode) + " whose scope is not the sub-group is not supported");
  }

  static void check_cluster_size(const Module& m, const Instruction& i) {
    std::optional<uint64_t> size = i.words.size() > 3 ? m.constant_value(i.word(3)) : std::nullopt;
    if (!size || *size == 0 || (*size & (*size - 1)) != 0)
      throw ProgramError(
          "the cluster size of sub_group_clustered_reduce_* must be a compile-time constant power of two");
  }

  // 8-, 16- or 64-bit integers and 16-bit floats, or vectors of them.
  static bool is_extended_type(const Module& m, uint32_t type) {
    const Instruction* t = m.find_global(type);
    if (t && t->opcode == Op::OpTypeVector) t = m.find_global(t->word(0));
    if (!t) return false;
    if (t->opcode == Op::OpTypeInt) return t->word(0) != 32;
    if (t->opcode == Op::OpTypeFloat) return t->word(0) == 16;
    return false;
  }
};

}  // namespace

std::unique_ptr<Pass> make_legalize_subgroup_operations() { return std::make_unique<LegalizeSubgroupOperations>(); }

}  // namespace vkcl::spirv
