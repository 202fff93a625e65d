// Golden tests of what the optimizer does to barrier loops
// (tools/clc/unroll_barrier_loops.h): which loops are fully unrolled, and
// that no loop with a barrier is unrolled partially, so that every barrier
// still runs exactly as often as the source says; and of the 32-bit indices
// into __local and __private arrays (spirv/narrow_local_indices.cpp), and
// size_t arithmetic truncated to 32 bits (spirv/narrow_truncated_arithmetic.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "barrier_inspection.h"
#include "compiler.h"
#include "module.h"
#include "pass.h"
#include "reflection.h"

namespace vkcl::testing {
namespace {

// Pointer arguments keep their addresses unless asked: these expectations
// follow them (storage-buffer arguments: storage_buffer_golden_test).
std::vector<uint32_t> compile(const std::string& source, bool optimize = true, uint32_t max_storage_buffers = 0) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL1_2;
  options.optimize = optimize;
  options.max_storage_buffers = max_storage_buffers;
  return compile_opencl(source, "optimization.cl", options).module.words;
}

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

size_t count(std::span<const uint32_t> words, spv::Op opcode) {
  spirv::Module m = spirv::Module::parse(words);
  size_t n = 0;
  for (const spirv::Function& f : m.functions)
    for (const spirv::Instruction& i : f.code) n += i.opcode == opcode;
  return n;
}

// The Hillis-Steele scan of the benchmark: one barrier before its loop of
// eight steps (offset 1, 2, ..., 128), one in each step. Unrolled, each copy
// reads buffers[0 or 1][lid - constant].
TEST(BarrierLoops, ScanLoopIsFullyUnrolled) {
  const std::vector<uint32_t> words = compile(read_file(VKCL_SHADERS_DIR "/bench/scan.cl"));
  EXPECT_EQ(count(words, spv::Op::OpLoopMerge), 0u) << disassemble(words);
  const std::vector<Barrier> barriers = barriers_in(words);
  ASSERT_EQ(barriers.size(), 9u) << disassemble(words);
  for (const Barrier& b : barriers)
    EXPECT_EQ(describe(b), "OpControlBarrier Workgroup Workgroup AcquireRelease|WorkgroupMemory|MakeAvailable|MakeVisible");
}

// A loop whose trip count is only known at run time keeps its two barriers
// in one loop: no run-time or partial unrolling.
TEST(BarrierLoops, RunTimeTripCountStaysOneLoop) {
  const std::vector<uint32_t> words = compile(read_file(VKCL_SHADERS_DIR "/bench/barrier_chain.cl"));
  EXPECT_EQ(count(words, spv::Op::OpLoopMerge), 1u) << disassemble(words);
  EXPECT_EQ(count(words, spv::Op::OpControlBarrier), 2u) << disassemble(words);
}

// 64 iterations: far above the threshold when unrolled, and not unrolled
// partially either (that would multiply the barriers in the loop).
TEST(BarrierLoops, LargeConstantTripCountStaysOneLoop) {
  const std::vector<uint32_t> words = compile(R"(
kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void big(global uint* out) {
  local uint t[256];
  const uint lid = get_local_id(0);
  uint v = lid;
  for (uint i = 0; i < 64; ++i) {
    t[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += t[(lid + i) & 255u];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)");
  EXPECT_EQ(count(words, spv::Op::OpLoopMerge), 1u) << disassemble(words);
  EXPECT_EQ(count(words, spv::Op::OpControlBarrier), 2u) << disassemble(words);
}

// The same loop with and without a barrier: its unrolled size lies between
// O2's threshold (150) and the barrier loops' (300), so only the loop with
// the barrier is unrolled; the other keeps LLVM's default.
std::string hashing_loop(bool with_barrier) {
  return std::string(R"(
kernel void hash(global const uint* in, global uint* out) {
  const uint gid = get_global_id(0);
  uint sum = 0;
  for (uint offset = 1; offset < 256; offset <<= 1) {
    uint x = gid >= offset ? in[gid - offset] : 0u;
    sum += x * offset ^ (sum >> 3);
    sum = sum * 0x9e3779b9u + (x >> 1) * (sum ^ offset);
    sum = sum * 0x9e3779b9u + (x >> 2) * (sum ^ offset);
    sum = sum * 0x9e3779b9u + (x >> 3) * (sum ^ offset);
)") + (with_barrier ? "    barrier(CLK_GLOBAL_MEM_FENCE);\n" : "") + R"(  }
  out[gid] = sum;
}
)";
}

TEST(BarrierLoops, OnlyLoopsWithBarriersGetTheHigherThreshold) {
  const std::vector<uint32_t> with_barrier = compile(hashing_loop(true));
  EXPECT_EQ(count(with_barrier, spv::Op::OpLoopMerge), 0u) << disassemble(with_barrier);
  EXPECT_EQ(count(with_barrier, spv::Op::OpControlBarrier), 8u) << disassemble(with_barrier);
  const std::vector<uint32_t> without = compile(hashing_loop(false));
  EXPECT_EQ(count(without, spv::Op::OpLoopMerge), 1u) << disassemble(without);
}

// ---------------------------------------------------------------------------
// Indices into Workgroup, Function and Private arrays

// One access chain's indices, with what defines each (0 for a constant).
struct ChainIndex {
  spv::StorageClass storage;
  bool pointer_chain;        // OpPtrAccessChain (its element operand first)
  uint32_t width;            // of the index's integer type
  spv::Op definition;        // OpNop for a global (a constant)
  const spirv::Instruction* defining = nullptr;
};

struct Chains {
  spirv::Module module;
  std::vector<ChainIndex> indices;
};

Chains chains_in(std::span<const uint32_t> words) {
  Chains result{spirv::Module::parse(words), {}};
  spirv::Module& m = result.module;
  for (spirv::Function& f : m.functions) {
    const spirv::ValueTypes types = spirv::value_types(m, f);
    std::unordered_map<uint32_t, const spirv::Instruction*> defs;
    for (const spirv::Instruction& i : f.code)
      if (i.result_id) defs[i.result_id] = &i;
    for (const spirv::Instruction& i : f.code) {
      if (i.opcode != spv::Op::OpAccessChain && i.opcode != spv::Op::OpPtrAccessChain) continue;
      const auto storage = m.storage_class_of(types.at(i.word(0)));
      if (!storage || *storage == spv::StorageClass::PushConstant) continue;
      for (size_t w = 1; w < i.words.size(); ++w) {
        const spirv::Instruction* type = m.find_global(types.at(i.word(w)));
        auto def = defs.find(i.word(w));
        result.indices.push_back({*storage, i.opcode == spv::Op::OpPtrAccessChain, type->word(0),
                                  def == defs.end() ? spv::Op::OpNop : def->second->opcode,
                                  def == defs.end() ? nullptr : def->second});
      }
    }
  }
  return result;
}

bool is_logical(spv::StorageClass s) {
  return s == spv::StorageClass::Workgroup || s == spv::StorageClass::Function || s == spv::StorageClass::Private;
}

// Every index into a __local or __private array that is not a constant is 32-bit.
void expect_32_bit_local_indices(std::span<const uint32_t> words, const std::string& what) {
  for (const ChainIndex& index : chains_in(words).indices) {
    if (is_logical(index.storage) && index.definition != spv::Op::OpNop) {
      EXPECT_EQ(index.width, 32u) << what << ": a 64-bit index into a __local or __private array\n"
                                  << disassemble(words);
    }
  }
}

// `t[get_local_id(0)]`, `p[lid & 15]` (64-bit `x & 15` after instcombine) and
// `t[(lid + i) & 63]` index __local and __private arrays; `out[get_global_id(0)]`
// and `in[k * i]` index global memory.
const char* kIndexedKernel = R"(
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void narrow(global uint* out, global const uint* in, uint i) {
  local uint t[64];
  uint p[16];
  for (uint k = 0; k < 16; ++k) p[k] = in[k * i];
  const uint lid = get_local_id(0);
  t[lid] = p[lid & 15u];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[(lid + i) & 63u];
}
)";

TEST(LocalIndices, ZeroExtendedIndicesAre32Bit) {
  const std::vector<uint32_t> words = compile(kIndexedKernel);
  expect_32_bit_local_indices(words, "-O2");
  const Chains chains = chains_in(words);
  std::vector<std::string> local;
  for (const ChainIndex& index : chains.indices) {
    if (!is_logical(index.storage) || index.defining == nullptr) continue;
    std::string text = std::string(index.storage == spv::StorageClass::Workgroup ? "Workgroup " : "Function ");
    const spirv::Instruction& d = *index.defining;
    if (d.opcode == spv::Op::OpCompositeExtract) {
      // The component of the Vulkan builtin's v3uint, not of its v3ulong widening.
      const spirv::Instruction* vector = nullptr;
      for (const spirv::Function& f : chains.module.functions)
        for (const spirv::Instruction& i : f.code)
          if (i.result_id == d.word(0)) vector = &i;
      ASSERT_NE(vector, nullptr);
      text += "OpCompositeExtract " + std::to_string(d.word(1)) + " of " +
              (vector->opcode == spv::Op::OpLoad &&
                       chains.module.decoration_literal(vector->word(0), spv::Decoration::BuiltIn) ==
                           uint32_t(spv::BuiltIn::LocalInvocationId)
                   ? "OpLoad LocalInvocationId"
                   : "another value");
    } else if (d.opcode == spv::Op::OpBitwiseAnd) {
      text += "OpBitwiseAnd with " + std::to_string(chains.module.constant_value(d.word(1)).value_or(~0ull));
    } else {
      text += "other";
    }
    local.push_back(text);
  }
  // t[lid] = p[lid & 15]: the load's chain, then the store's; then t[(lid + i) & 63].
  EXPECT_EQ(local, (std::vector<std::string>{"Function OpBitwiseAnd with 15",
                                             "Workgroup OpCompositeExtract 0 of OpLoad LocalInvocationId",
                                             "Workgroup OpBitwiseAnd with 63"}))
      << disassemble(words);
}

TEST(LocalIndices, ZeroExtendedIndicesAre32BitAtO0) {
  expect_32_bit_local_indices(compile(kIndexedKernel, /*optimize=*/false), "-O0");
}

// OpPtrAccessChain's element index into PhysicalStorageBuffer memory is
// signed: it stays 64-bit.
TEST(LocalIndices, GlobalIndicesStay64Bit) {
  const std::vector<uint32_t> words = compile(kIndexedKernel);
  size_t global = 0;
  for (const ChainIndex& index : chains_in(words).indices) {
    if (index.storage != spv::StorageClass::PhysicalStorageBuffer) continue;
    ++global;
    EXPECT_TRUE(index.pointer_chain);
    EXPECT_EQ(index.width, 64u) << disassemble(words);
  }
  EXPECT_EQ(global, 16u) << disassemble(words);  // in[0 .. 15 * i] (unrolled), out[gid]
}

TEST(LocalIndices, BenchmarkKernelsIndexLocalMemoryIn32Bits) {
  for (const char* name : {"scan", "reduce", "barrier_chain", "transpose", "sgemm", "histogram"})
    expect_32_bit_local_indices(compile(read_file(std::string(VKCL_SHADERS_DIR "/bench/") + name + ".cl")), name);
}


// NVIDIA's driver (580.159.04) crashes compiling an OpBitcast from one pointer
// type to another of the same storage class and pointee, which half storage
// made (a half* with ArrayStride, stored as ushort, cast to the ushort* that
// vload_half reads through). fold_identity_pointer_casts removes them, at -O2
// and at -O0 (where the SPIR-V optimizer does not run). Pointer arguments
// keep their addresses here: storage buffers have no pointer casts.
TEST(FoldIdentityPointerCasts, HalfStorageHasNoCastBetweenEqualPointerTypes) {
  const std::string source = read_file(VKCL_SHADERS_DIR "/corpus/type_half_storage.cl");
  for (bool optimize : {true, false}) {
    const std::vector<uint32_t> words = compile(source, optimize, 0);
    spirv::Module m = spirv::Module::parse(words);
    std::unordered_map<uint32_t, uint32_t> type_of;
    for (const spirv::Instruction& g : m.globals)
      if (g.result_id && g.type_id) type_of[g.result_id] = g.type_id;
    for (const spirv::Function& f : m.functions)
      for (const spirv::Instruction& i : f.code)
        if (i.result_id && i.type_id) type_of[i.result_id] = i.type_id;
    size_t pointer_casts = 0;
    for (const spirv::Function& f : m.functions)
      for (const spirv::Instruction& i : f.code) {
        if (i.opcode != spv::Op::OpBitcast || !m.storage_class_of(i.type_id)) continue;
        ++pointer_casts;
        const uint32_t from = type_of.at(i.word(0));
        EXPECT_FALSE(m.storage_class_of(from) == m.storage_class_of(i.type_id) &&
                     m.pointee_of(from) == m.pointee_of(i.type_id))
            << "optimize=" << optimize << ": %" << i.result_id << " casts between equal pointer types\n"
            << disassemble(words);
      }
    // At -O2 the kernel still stores a float through a uint pointer: casts are looked at.
    if (optimize) {
      EXPECT_GT(pointer_casts, 0u) << "optimize=" << optimize << "\n" << disassemble(words);
    }
  }
}

// size_t arithmetic kept in a uint (`get_group_id(0) * TILE + lx`) is done in
// 32 bits (spirv/narrow_truncated_arithmetic): in the transpose only the
// widening of each global index to OpPtrAccessChain's 64 bits remains.
TEST(NarrowTruncatedArithmetic, TransposeComputesItsIndicesIn32Bits) {
  const std::string source = read_file(VKCL_SHADERS_DIR "/bench/transpose.cl");
  for (bool optimize : {true, false}) {
    const std::vector<uint32_t> words = compile(source, optimize);
    spirv::Module m = spirv::Module::parse(words);
    const uint32_t ulong = m.type_int(64);
    const uint32_t v3ulong = m.type_vector(ulong, 3);
    size_t widenings = 0;
    for (const spirv::Function& f : m.functions)
      for (const spirv::Instruction& i : f.code) {
        if (i.type_id != ulong && i.type_id != v3ulong) continue;
        if (i.opcode == spv::Op::OpUConvert && i.type_id == ulong) {
          ++widenings;
          continue;
        }
        ADD_FAILURE() << "optimize=" << optimize << ": %" << i.result_id << " computes in 64 bits\n" << disassemble(words);
        break;
      }
    EXPECT_EQ(widenings, 2u) << "optimize=" << optimize << "\n" << disassemble(words);
  }
}

// An if/else is one selection construct whose two arms merge
// (tools/clc/rejoin_if_else.cpp), not structurizecfg's two ifs in a row: in
// the message-passing benchmark, `if (polls < SPIN_LIMIT) sum += ...; else
// ++missed;` branches from the header to two blocks, neither of them the merge.
TEST(IfElse, IsOneSelectionConstruct) {
  for (bool optimize : {true, false}) {
    const std::vector<uint32_t> words = compile(read_file(VKCL_SHADERS_DIR "/bench/message_passing.cl"), optimize);
    spirv::Module m = spirv::Module::parse(words);
    std::vector<std::string> if_else_merges;
    for (const spirv::Function& f : m.functions)
      for (size_t p = 0; p + 1 < f.code.size(); ++p) {
        const spirv::Instruction &merge = f.code[p], &branch = f.code[p + 1];
        if (merge.opcode != spv::Op::OpSelectionMerge || branch.opcode != spv::Op::OpBranchConditional) continue;
        if (branch.word(1) != merge.word(0) && branch.word(2) != merge.word(0))
          if_else_merges.push_back(m.name_of(merge.word(0)));
      }
    // for.inc: the end of the loop body, where the source's if/else merges.
    EXPECT_NE(std::find(if_else_merges.begin(), if_else_merges.end(), "for.inc"), if_else_merges.end())
        << "optimize=" << optimize << "\n" << disassemble(words);
  }
}

// get_global_id is WorkgroupId * enqueued local size + LocalInvocationId +
// the dispatch's first global id (one push-constant field), and a kernel with
// reqd_work_group_size multiplies by that constant instead of reading the
// enqueued local size: the message-passing benchmark reads one ND-range
// field, and its 256 is a constant.
TEST(GlobalId, ReqdWorkGroupSizeIsTheEnqueuedLocalSize) {
  CompileOptions options;
  const std::string source = read_file(VKCL_SHADERS_DIR "/bench/message_passing.cl");
  const VulkanModule module = compile_opencl(source, "message_passing.cl", options).module;
  const KernelReflection& k = module.reflection.kernels.at(0);
  ASSERT_EQ(k.ndrange.size(), 1u) << serialize(module.reflection);
  EXPECT_EQ(k.ndrange[0].field, NDRangeField::GlobalIdBase);
  const std::string text = disassemble(module.words);
  EXPECT_NE(text.find("OpConstantComposite %v3uint %uint_256 %uint_1 %uint_1\n"), std::string::npos) << text;

  // Without the attribute, the enqueued local size is a field.
  std::string plain = source;
  plain.replace(plain.find("__attribute__((reqd_work_group_size(WG, 1, 1)))"), 47, "");
  const VulkanModule without = compile_opencl(plain, "message_passing.cl", options).module;
  const KernelReflection& w = without.reflection.kernels.at(0);
  EXPECT_TRUE(w.ndrange_offset(NDRangeField::EnqueuedLocalSize).has_value()) << serialize(without.reflection);
  EXPECT_TRUE(w.ndrange_offset(NDRangeField::GlobalIdBase).has_value()) << serialize(without.reflection);
  EXPECT_FALSE(w.ndrange_offset(NDRangeField::GlobalOffset).has_value()) << serialize(without.reflection);
  EXPECT_FALSE(w.ndrange_offset(NDRangeField::GroupOffset).has_value()) << serialize(without.reflection);
}

}  // namespace
}  // namespace vkcl::testing
