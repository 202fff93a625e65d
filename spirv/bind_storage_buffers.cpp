// bind_storage_buffers: __global and __constant pointer arguments that are
// only ever a base of memory accesses become descriptor-bound storage buffers.
//
// Why: a buffer device address costs more than a descriptor on the drivers
// that matter. On the H100 a GLSL kernel reading its buffers through
// GL_EXT_buffer_reference pointers in push constants ran 10-58% slower than
// the same kernel on descriptor-bound storage buffers (docs/performance.md),
// and 64-bit address arithmetic per access goes with it. An argument that is
// stored to memory, passed to a function, compared, converted to an integer
// or copied with OpCopyMemory keeps its address (lower_kernel_arguments):
// only addresses can do those things.
//
// Which arguments: a parameter qualifies when every value derived from it --
// OpPtrAccessChain, OpInBoundsPtrAccessChain, OpAccessChain and
// OpInBoundsAccessChain based on it, OpBitcast to another pointer, OpPhi and
// OpSelect all of whose pointer operands derive from the same parameter -- is
// used only by those, by OpLoad, by OpStore and by OpAtomic* as the pointer,
// and every type accessed is a scalar, a vector of at most 4 components, or
// a struct or array of those (accessed leaf by leaf), Volatile only as a
// 32-bit integer (below). At most
// LoweringOptions::max_storage_buffers arguments of a kernel qualify, the
// first in argument order.
//
// How: each derived pointer becomes a 32-bit offset in units of its
// pointee's scalar alignment (unit_of: a float3* counts floats, since LLVM
// loads a float3 from a float* with align 4). That is exact: a pointer to T
// is aligned to T's scalars (C11 6.3.2.3p7; the access's Aligned operand
// says no less), the host binds a buffer at a multiple of
// minStorageBufferOffsetAlignment, and every step between pointers (an
// element, a member, an array stride) is a multiple of the unit of what it
// points to. An access of a scalar, or of a vector aligned as one (the
// access's Aligned operand), becomes OpAccessChain into the argument's view
// of that type, a StorageBuffer variable of struct { T[] } at the argument's
// binding (set 0; Vulkan lets variables of different types share one
// binding); a vector aligned less is accessed component by component, an
// aggregate leaf by leaf, and a scalar aligned less than its size keeps the
// argument's address. Offsets are
// 32 bits because a storage buffer holds at most maxStorageBufferRange (< 4
// GiB) bytes; the 64-bit element indices are truncated, so
// narrow_truncated_arithmetic can do their arithmetic in 32 bits. Casts to
// a stricter alignment shift arithmetically, so a pointer briefly before its
// buffer (p - 1) stays exact.
//
// Aliasing: SPIR-V lets a Vulkan driver assume that memory object
// declarations do not alias (2.18.2), OpenCL that any two pointers may.
// The views of an argument are Aliased when another global argument could
// alias it and one of the two is written, unless OpenCL's restrict rules
// that out (the translator's FuncParamAttr NoAlias, which
// strip_kernel_decorations records), or when it has several views and is
// written. The views of an argument never written are NonWritable.
//
// Runs after rewrite_entry_points and before lower_kernel_arguments, which
// gives the bound parameters a binding in the reflection instead of a
// push-constant member.
#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;

bool is_element_chain(Op op) { return op == Op::OpPtrAccessChain || op == Op::OpInBoundsPtrAccessChain; }
bool is_global(std::optional<StorageClass> s) {
  return s == StorageClass::CrossWorkgroup || s == StorageClass::UniformConstant;
}

// The alignment a pointer to `type` can be relied on to have: that of its
// scalars (powers of two).
uint32_t unit_of(const Module& m, uint32_t type) {
  const Instruction* t = m.find_global(type);
  if (!t) return 1;
  switch (t->opcode) {
    case Op::OpTypeInt: case Op::OpTypeFloat: return std::max(1u, t->word(0) / 8);
    case Op::OpTypeVector: case Op::OpTypeArray: case Op::OpTypeRuntimeArray: return unit_of(m, t->word(0));
    case Op::OpTypeStruct: {
      uint32_t unit = 8;
      for (uint32_t member : t->words) unit = std::min(unit, unit_of(m, member));
      return unit;
    }
    default: return 8;  // pointers
  }
}

// The alignment of the byte `bytes` past an address aligned to `alignment`.
uint32_t alignment_at(uint32_t alignment, uint64_t bytes) {
  return bytes == 0 ? alignment : uint32_t(std::min<uint64_t>(alignment, bytes & (~bytes + 1)));
}

// What an access of `type` (a scalar or vector) aligned to `alignment` goes
// through: the type's own view, a vector's component view (a vector aligned
// less than itself), or nothing (a scalar aligned less than its size, or a
// vector of more than 4 components, which lower_long_vectors makes arrays).
std::optional<uint32_t> view_of(const Module& m, uint32_t type, uint32_t alignment) {
  const Instruction* t = m.find_global(type);
  if (!t) return std::nullopt;
  if (t->opcode == Op::OpTypeInt || t->opcode == Op::OpTypeFloat)
    return alignment >= m.size_of(type) ? std::optional(type) : std::nullopt;
  if (t->opcode != Op::OpTypeVector || t->word(1) > 4) return std::nullopt;
  if (alignment >= m.alignment_of(type)) return type;
  return view_of(m, t->word(0), alignment);
}

// A struct member's Offset (lay_out_global_memory gave every struct in global memory one).
std::optional<uint32_t> member_offset(const Module& m, uint32_t structure, uint32_t member) {
  for (const Instruction& a : m.annotations)
    if (a.opcode == Op::OpMemberDecorate && a.word(0) == structure && a.word(1) == member &&
        spv::Decoration(a.word(2)) == spv::Decoration::Offset)
      return a.word(3);
  return std::nullopt;
}

// Calls fn(type, bytes, alignment) for each scalar or vector of a value of
// `type` at `bytes` past an address aligned to `alignment`, in order;
// false when `type` has parts that are neither (pointers, opaque types).
template <typename Fn>
bool for_each_leaf(const Module& m, uint32_t type, uint32_t alignment, uint64_t bytes, Fn&& fn) {
  const Instruction* t = m.find_global(type);
  if (!t) return false;
  switch (t->opcode) {
    case Op::OpTypeInt: case Op::OpTypeFloat: case Op::OpTypeVector:
      return fn(type, bytes, alignment_at(alignment, bytes));
    case Op::OpTypeArray: {
      const auto length = m.constant_value(t->word(1));
      if (!length) return false;
      const uint64_t stride = m.decoration_literal(type, spv::Decoration::ArrayStride).value_or(m.size_of(t->word(0)));
      for (uint64_t k = 0; k < *length; ++k)
        if (!for_each_leaf(m, t->word(0), alignment, bytes + k * stride, fn)) return false;
      return true;
    }
    case Op::OpTypeStruct:
      for (uint32_t k = 0; k < t->words.size(); ++k) {
        const std::optional<uint32_t> offset = member_offset(m, type, k);
        if (!offset || !for_each_leaf(m, t->word(k), alignment, bytes + *offset, fn)) return false;
      }
      return true;
    default:
      return false;
  }
}

// The Aligned operand of a load or store, else the natural alignment of `type`.
uint32_t access_alignment(const Module& m, const Instruction& access, uint32_t type) {
  const size_t mask_at = access.opcode == Op::OpLoad ? 1 : 2;
  if (access.words.size() > mask_at + 1 && (access.word(mask_at) & uint32_t(spv::MemoryAccessMask::Aligned)))
    return access.word(mask_at + 1);
  return m.alignment_of(type);
}

// Whether a load or store is Volatile. The SPIR-V optimizer removes a loop
// that polls a storage buffer through Volatile loads (spin_forever in
// tests/tools/run_test.cpp), though not through an address, nor through
// atomics. So a Volatile access of a 32-bit integer becomes a relaxed atomic
// one at device scope, which performs every access the source asks for as
// volatile does (and more); any other Volatile access keeps its argument's
// address. Polling by address cost lavapipe a third of vkcl-bench's
// message_passing (docs/performance.md, "Argument passing").
bool is_volatile(const Instruction& access) {
  const size_t mask_at = access.opcode == Op::OpLoad ? 1 : 2;
  return access.words.size() > mask_at && (access.word(mask_at) & uint32_t(spv::MemoryAccessMask::Volatile));
}

// One parameter's derived pointers and accesses, as the analysis found them.
struct Candidate {
  uint32_t param = 0;
  uint32_t index = 0;  // argument index
  std::unordered_set<uint32_t> derived;  // pointer values, the parameter included
  std::vector<uint32_t> leaf_types;      // the views: scalar and vector types accessed, each once
  std::vector<size_t> volatile_accesses;  // positions of Volatile loads and stores, to become atomics
  bool written = false;
  bool qualifies = true;
};

class BindStorageBuffers final : public Pass {
 public:
  std::string_view name() const override { return "bind_storage_buffers"; }

  void run(Module& m, LoweringContext& context) override {
    for (KernelState& kernel : context.kernels) bind(m, context, kernel);
  }

 private:
  // ---------------------------------------------------------------------------
  // Analysis

  static void bind(Module& m, LoweringContext& context, KernelState& kernel) {
    Function& f = function_by_id(m, kernel.function);
    const ValueTypes types = value_types(m, f);
    const DefUse uses(f);

    std::vector<Candidate> candidates;
    uint32_t index = 0;
    for (const Instruction& param : f.code) {
      if (param.opcode != Op::OpFunctionParameter) continue;
      const uint32_t arg = index++;
      if (!is_global(m.storage_class_of(param.type_id))) continue;
      Candidate& c = candidates.emplace_back();
      c.param = param.result_id;
      c.index = arg;
      analyze(m, f, types, uses, c);
    }

    uint32_t binding = 0;
    for (Candidate& c : candidates) {
      if (!c.qualifies) continue;
      if (binding == context.options.max_storage_buffers) c.qualifies = false;
      else ++binding;
    }
    for (const Candidate& c : candidates)
      if (c.qualifies)
        for (size_t p : c.volatile_accesses) f.code[p] = relaxed_atomic(m, f.code[p]);
    binding = 0;
    for (const Candidate& c : candidates) {
      if (!c.qualifies) continue;
      const bool aliased = needs_aliased(c, candidates, context.restrict_parameters);
      rewrite(m, f, types, c, binding, aliased);
      context.storage_buffer_bindings[c.param] = binding++;
    }
  }

  // A Volatile OpLoad or OpStore as OpAtomicLoad or OpAtomicStore, relaxed,
  // at device scope (OpenCL's memory_scope_device; map_memory_semantics maps
  // it for the device, as it does every atomic's).
  static Instruction relaxed_atomic(Module& m, const Instruction& access) {
    const uint32_t device = m.constant_u32(uint32_t(spv::Scope::Device)), relaxed = m.constant_u32(0);
    if (access.opcode == Op::OpLoad) {
      Instruction load(Op::OpAtomicLoad, access.type_id, access.result_id);
      load.id(access.word(0)).id(device).id(relaxed);
      return load;
    }
    Instruction store(Op::OpAtomicStore, 0, 0);
    store.id(access.word(0)).id(device).id(relaxed).id(access.word(1));
    return store;
  }

  static void analyze(const Module& m, const Function& f, const ValueTypes& types,
                      const DefUse& uses, Candidate& c) {
    auto fail = [&] { c.qualifies = false; };
    std::vector<uint32_t> work{c.param};
    c.derived.insert(c.param);
    std::vector<size_t> merges;  // phis and selects, checked once every derived value is known
    while (!work.empty() && c.qualifies) {
      const uint32_t value = work.back();
      work.pop_back();
      for (size_t p : uses.uses(value)) {
        const Instruction& i = f.code[p];
        auto derive = [&] {
          if (c.derived.insert(i.result_id).second) work.push_back(i.result_id);
        };
        if (is_chain(i.opcode) && i.word(0) == value) {
          if (!chain_terms(m, types, i)) return fail();  // a step not a multiple of the result's unit
          derive();
        } else if (i.opcode == Op::OpBitcast && is_global(m.storage_class_of(i.type_id))) {
          derive();
        } else if (i.opcode == Op::OpPhi || (i.opcode == Op::OpSelect && i.word(0) != value)) {
          merges.push_back(p);
          derive();
        } else if ((i.opcode == Op::OpLoad && i.word(0) == value) ||
                   (i.opcode == Op::OpStore && i.word(0) == value && i.word(1) != value)) {
          const uint32_t pointee = m.pointee_of(types.at(value));
          if (is_volatile(i)) {
            const Instruction* t = m.find_global(pointee);
            if (!t || t->opcode != Op::OpTypeInt || t->word(0) != 32) return fail();
            c.volatile_accesses.push_back(p);
          }
          if (!add_views(m, pointee, access_alignment(m, i, pointee), c.leaf_types)) return fail();
          if (i.opcode == Op::OpStore) c.written = true;
        } else if (is_atomic(i.opcode) && i.word(0) == value &&
                   std::count(i.words.begin() + 1, i.words.end(), value) == 0) {
          const uint32_t pointee = m.pointee_of(types.at(value));
          if (!add_views(m, pointee, m.alignment_of(pointee), c.leaf_types)) return fail();
          if (i.opcode != Op::OpAtomicLoad) c.written = true;
        } else {
          return fail();  // stored as a value, passed, compared, converted, copied
        }
      }
    }
    for (size_t p : merges) {
      const Instruction& i = f.code[p];
      if (i.opcode == Op::OpPhi) {
        for (size_t w = 0; w < i.words.size(); w += 2)
          if (!c.derived.count(i.word(w))) return fail();
      } else if (!c.derived.count(i.word(1)) || !c.derived.count(i.word(2))) {
        return fail();
      }
    }
  }

  // Whether every scalar and vector of an access of `type` has a view; adds them to `views`.
  static bool add_views(const Module& m, uint32_t type, uint32_t alignment, std::vector<uint32_t>& views) {
    return for_each_leaf(m, type, alignment, 0, [&](uint32_t leaf, uint64_t, uint32_t leaf_alignment) {
      const std::optional<uint32_t> view = view_of(m, leaf, leaf_alignment);
      if (!view) return false;
      if (std::ranges::count(views, *view) == 0) views.push_back(*view);
      return true;
    });
  }

  // The offset of a chain's result in its units (unit_of its pointee): the
  // base's offset converted from `base_unit` to `unit`, plus each index
  // times its scale, plus `constant`. Nothing when a step other than the
  // base is not a multiple of the result's unit, or a type on the way has
  // no known layout (the argument then keeps its address).
  struct ChainTerms {
    uint32_t base_unit = 1, unit = 1;
    std::vector<std::pair<uint32_t, uint32_t>> indices;  // index value, scale
    uint32_t constant = 0;
  };

  static std::optional<ChainTerms> chain_terms(const Module& m, const ValueTypes& types, const Instruction& chain) {
    const uint32_t base_pointee = m.pointee_of(types.at(chain.word(0)));
    const uint32_t unit = unit_of(m, m.pointee_of(chain.type_id));
    uint64_t constant_bytes = 0;
    std::vector<std::pair<uint32_t, uint64_t>> byte_indices;
    auto add_index = [&](uint32_t index, uint64_t scale) {
      if (auto value = m.constant_value(index)) constant_bytes += *value * scale;
      else byte_indices.emplace_back(index, scale);
    };
    uint32_t current = base_pointee;
    size_t w = 1;
    if (is_element_chain(chain.opcode)) add_index(chain.word(w++), m.size_of(current));
    for (; w < chain.words.size(); ++w) {
      const Instruction* t = m.find_global(current);
      if (!t) return std::nullopt;
      if (t->opcode == Op::OpTypeStruct) {
        auto member = m.constant_value(chain.word(w));
        if (!member || *member >= t->words.size()) return std::nullopt;
        auto offset = member_offset(m, current, uint32_t(*member));
        if (!offset) return std::nullopt;
        constant_bytes += *offset;
        current = t->word(size_t(*member));
      } else if (t->opcode == Op::OpTypeArray || t->opcode == Op::OpTypeVector) {
        const uint32_t element = t->word(0);
        uint64_t stride = m.size_of(element);
        if (t->opcode == Op::OpTypeArray)
          if (auto s = m.decoration_literal(current, spv::Decoration::ArrayStride)) stride = *s;
        add_index(chain.word(w), stride);
        current = element;
      } else {
        return std::nullopt;
      }
    }
    if (constant_bytes % unit != 0) return std::nullopt;
    ChainTerms terms;
    terms.base_unit = unit_of(m, base_pointee);
    terms.unit = unit;
    terms.constant = uint32_t(constant_bytes / unit);  // modulo 2^32, as the offsets are
    for (auto [index, scale] : byte_indices) {
      if (scale % unit != 0) return std::nullopt;
      terms.indices.emplace_back(index, uint32_t(scale / unit));
    }
    return terms;
  }

  // See the file comment: restrict on both sides, or neither written, rules aliasing out.
  static bool needs_aliased(const Candidate& c, const std::vector<Candidate>& all,
                            const std::unordered_set<uint32_t>& restricted) {
    if (c.written && c.leaf_types.size() > 1) return true;
    if (restricted.count(c.param)) return false;
    for (const Candidate& other : all) {
      if (other.param == c.param || restricted.count(other.param)) continue;
      // An argument that keeps its address was not fully analyzed: it may be written.
      const bool other_written = other.written || !other.qualifies;
      if (c.written || other_written) return true;
    }
    return false;
  }

  // ---------------------------------------------------------------------------
  // Rewriting

  struct Views {
    std::map<uint32_t, uint32_t> variable;  // leaf type → its view
    uint32_t pointer(Module& m, uint32_t leaf) { return m.type_pointer(StorageClass::StorageBuffer, leaf); }
  };

  static Views declare_views(Module& m, const Candidate& c, uint32_t binding, bool aliased) {
    Views views;
    const std::string name = m.name_of(c.param);
    for (uint32_t leaf : c.leaf_types) {
      const uint32_t array = m.new_id(), block = m.new_id(), variable = m.new_id();
      m.globals.push_back(std::move(Instruction(Op::OpTypeRuntimeArray, 0, array).id(leaf)));
      m.decorate(array, spv::Decoration::ArrayStride, std::array{m.size_of(leaf)});
      m.globals.push_back(std::move(Instruction(Op::OpTypeStruct, 0, block).id(array)));
      m.decorate(block, spv::Decoration::Block);
      m.decorate_member(block, 0, spv::Decoration::Offset, std::array{0u});
      if (!c.written) m.decorate_member(block, 0, spv::Decoration::NonWritable);
      m.globals.push_back(std::move(Instruction(Op::OpVariable, m.type_pointer(StorageClass::StorageBuffer, block), variable)
                                        .literal(uint32_t(StorageClass::StorageBuffer))));
      m.decorate(variable, spv::Decoration::DescriptorSet, std::array{0u});
      m.decorate(variable, spv::Decoration::Binding, std::array{binding});
      if (aliased) m.decorate(variable, spv::Decoration::Aliased);
      if (!name.empty())
        m.debug.push_back(std::move(Instruction(Op::OpName, 0, 0).id(variable).string(name)));
      views.variable[leaf] = variable;
    }
    return views;
  }

  class Rewriter {
   public:
    Rewriter(Module& m, const ValueTypes& types, const Candidate& c, Views views)
        : m_(m), types_(types), c_(c), views_(std::move(views)), uint_(m.type_int(32)) {
      for (uint32_t value : c.derived) offset_[value] = value == c.param ? m.constant_u32(0) : m.new_id();
    }

    void run(Function& f) {
      std::vector<Instruction> code;
      code.reserve(f.code.size());
      for (Instruction& i : f.code) {
        out_ = &code;
        if (i.result_id && c_.derived.count(i.result_id)) {
          if (i.result_id != c_.param) define_offset(i);
          else code.push_back(std::move(i));  // lower_kernel_arguments removes the parameter
        } else if ((i.opcode == Op::OpLoad || i.opcode == Op::OpStore || is_atomic(i.opcode)) &&
                   c_.derived.count(i.word(0))) {
          rewrite_access(i);
        } else {
          code.push_back(std::move(i));
        }
      }
      f.code = std::move(code);
      std::erase_if(m_.debug, [&](const Instruction& d) {
        return (d.opcode == Op::OpName || d.opcode == Op::OpMemberName) && d.word(0) != c_.param &&
               c_.derived.count(d.word(0));
      });
      std::erase_if(m_.annotations, [&](const Instruction& a) {
        return !a.words.empty() && a.word(0) != c_.param && c_.derived.count(a.word(0));
      });
    }

   private:
    uint32_t emit(Op op, uint32_t type, std::initializer_list<uint32_t> operands, uint32_t result = 0) {
      Instruction i(op, type, result ? result : m_.new_id());
      for (uint32_t id : operands) i.id(id);
      const uint32_t id = i.result_id;
      out_->push_back(std::move(i));
      return id;
    }

    // An index as a 32-bit integer: 64-bit ones truncated (see the file
    // comment), narrower ones sign-extended as LLVM's GEP indices are signed.
    uint32_t index32(uint32_t index) {
      const Instruction* t = m_.find_global(types_.at(index));
      const uint32_t width = t->word(0);
      if (width == 32) return index;
      return emit(width > 32 ? Op::OpUConvert : Op::OpSConvert, uint_, {index});
    }

    uint32_t scaled(uint32_t value, uint32_t scale) {
      if (scale == 1) return value;
      if (std::has_single_bit(scale))
        return emit(Op::OpShiftLeftLogical, uint_, {value, m_.constant_u32(uint32_t(std::countr_zero(scale)))});
      return emit(Op::OpIMul, uint_, {value, m_.constant_u32(scale)});
    }

    // An offset in units of `from` bytes as units of `to` (both powers of
    // two); exact for the addresses a valid program accesses (file comment).
    uint32_t converted(uint32_t offset, uint32_t from, uint32_t to) {
      if (from >= to) return scaled(offset, from / to);
      return emit(Op::OpShiftRightArithmetic, uint_, {offset, m_.constant_u32(uint32_t(std::countr_zero(to / from)))});
    }

    uint32_t sum(std::vector<uint32_t> terms, uint32_t constant, uint32_t result) {
      if (constant != 0 || terms.empty()) terms.push_back(m_.constant_u32(constant));
      if (terms.size() == 1) return emit(Op::OpCopyObject, uint_, {terms[0]}, result);
      uint32_t acc = terms[0];
      for (size_t k = 1; k < terms.size(); ++k) acc = emit(Op::OpIAdd, uint_, {acc, terms[k]}, k + 1 == terms.size() ? result : 0);
      return acc;
    }

    void define_offset(const Instruction& i) {
      const uint32_t result = offset_.at(i.result_id);
      if (i.opcode == Op::OpPhi) {
        Instruction phi(Op::OpPhi, uint_, result);
        for (size_t w = 0; w < i.words.size(); w += 2) phi.id(offset_.at(i.word(w))).id(i.word(w + 1));
        out_->push_back(std::move(phi));
      } else if (i.opcode == Op::OpSelect) {
        emit(Op::OpSelect, uint_, {i.word(0), offset_.at(i.word(1)), offset_.at(i.word(2))}, result);
      } else if (i.opcode == Op::OpBitcast) {
        const uint32_t from = unit_of(m_, m_.pointee_of(types_.at(i.word(0))));
        const uint32_t to = unit_of(m_, m_.pointee_of(i.type_id));
        sum({converted(offset_.at(i.word(0)), from, to)}, 0, result);
      } else {  // a chain, which the analysis found exact
        const ChainTerms terms = *chain_terms(m_, types_, i);
        std::vector<uint32_t> parts{converted(offset_.at(i.word(0)), terms.base_unit, terms.unit)};
        for (auto [index, scale] : terms.indices) parts.push_back(scaled(index32(index), scale));
        sum(std::move(parts), terms.constant, result);
      }
    }

    // The view's element at `offset` (in units of `leaf`'s alignment).
    uint32_t element(uint32_t leaf, uint32_t offset) {
      return emit(Op::OpAccessChain, views_.pointer(m_, leaf), {views_.variable.at(leaf), m_.constant_u32(0), offset});
    }

    // Memory operands without Aligned: a storage buffer's element is aligned.
    static std::vector<uint32_t> without_aligned(std::span<const uint32_t> operands) {
      if (operands.empty()) return {};
      std::vector<uint32_t> kept(operands.begin(), operands.end());
      const auto aligned = uint32_t(spv::MemoryAccessMask::Aligned);
      if (kept[0] & aligned) {
        kept[0] &= ~aligned;
        kept.erase(kept.begin() + 1);
      }
      if (kept[0] == 0 && kept.size() == 1) kept.clear();
      return kept;
    }

    void rewrite_access(Instruction& i) {
      const uint32_t pointee = m_.pointee_of(types_.at(i.word(0)));
      const uint32_t offset = offset_.at(i.word(0));
      const uint32_t unit = unit_of(m_, pointee);
      if (is_atomic(i.opcode)) {  // naturally aligned scalars
        i.words[0] = element(pointee, converted(offset, unit, m_.size_of(pointee)));
        out_->push_back(std::move(i));
        return;
      }
      const bool load = i.opcode == Op::OpLoad;
      const uint32_t alignment = access_alignment(m_, i, pointee);
      const size_t operands_at = load ? 1 : 2;
      const std::vector<uint32_t> operands =
          without_aligned(std::span(i.words).subspan(std::min(operands_at, i.words.size())));
      // Each scalar or vector part with its view's element: loaded and put
      // back together, or taken apart and stored, in the order for_each_leaf visits them.
      std::vector<uint32_t> parts;
      if (!load) split(pointee, i.word(1), parts);
      size_t next = 0;
      std::vector<uint32_t> loaded;
      for_each_leaf(m_, pointee, alignment, 0, [&](uint32_t leaf, uint64_t bytes, uint32_t leaf_alignment) {
        const uint32_t view = *view_of(m_, leaf, leaf_alignment);
        const uint32_t view_size = m_.size_of(view);
        const uint32_t first = sum({converted(offset, unit, view_size)}, uint32_t(bytes / view_size), 0);
        if (view == leaf) {
          if (load) loaded.push_back(access(Op::OpLoad, leaf, element(leaf, first), 0, operands));
          else access(Op::OpStore, leaf, element(leaf, first), parts[next++], operands);
          return true;
        }
        // A vector aligned less than itself: component by component.
        const uint32_t components = m_.find_global(leaf)->word(1);
        Instruction vector(Op::OpCompositeConstruct, leaf, m_.new_id());
        for (uint32_t k = 0; k < components; ++k) {
          const uint32_t at = k == 0 ? first : emit(Op::OpIAdd, uint_, {first, m_.constant_u32(k)});
          if (load) {
            vector.id(access(Op::OpLoad, view, element(view, at), 0, operands));
          } else {
            Instruction extract(Op::OpCompositeExtract, view, m_.new_id());
            extract.id(parts[next]).literal(k);
            const uint32_t component = extract.result_id;
            out_->push_back(std::move(extract));
            access(Op::OpStore, view, element(view, at), component, operands);
          }
        }
        if (load) {
          loaded.push_back(vector.result_id);
          out_->push_back(std::move(vector));
        } else {
          ++next;
        }
        return true;
      });
      if (load) {
        size_t used = 0;
        const uint32_t value = assemble(pointee, loaded, used);
        emit(Op::OpCopyObject, pointee, {value}, i.result_id);
      }
    }

    // Emits a load or store of the view element `pointer`; a load's result.
    uint32_t access(Op op, uint32_t type, uint32_t pointer, uint32_t value, const std::vector<uint32_t>& operands) {
      Instruction i(op, op == Op::OpLoad ? type : 0, op == Op::OpLoad ? m_.new_id() : 0);
      i.id(pointer);
      if (op == Op::OpStore) i.id(value);
      for (uint32_t operand : operands) i.literal(operand);
      const uint32_t result = i.result_id;
      out_->push_back(std::move(i));
      return result;
    }

    // The scalars and vectors of `value`, in for_each_leaf's order.
    void split(uint32_t type, uint32_t value, std::vector<uint32_t>& parts) {
      const Instruction* t = m_.find_global(type);
      if (t->opcode != Op::OpTypeStruct && t->opcode != Op::OpTypeArray) {
        parts.push_back(value);
        return;
      }
      const uint32_t count = t->opcode == Op::OpTypeStruct ? uint32_t(t->words.size())
                                                          : uint32_t(*m_.constant_value(t->word(1)));
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t part_type = t->opcode == Op::OpTypeStruct ? t->word(k) : t->word(0);
        Instruction extract(Op::OpCompositeExtract, part_type, m_.new_id());
        extract.id(value).literal(k);
        const uint32_t part = extract.result_id;
        out_->push_back(std::move(extract));
        split(part_type, part, parts);
      }
    }

    // A value of `type` from its scalars and vectors `parts[used...]`.
    uint32_t assemble(uint32_t type, const std::vector<uint32_t>& parts, size_t& used) {
      const Instruction* t = m_.find_global(type);
      if (t->opcode != Op::OpTypeStruct && t->opcode != Op::OpTypeArray) return parts.at(used++);
      const uint32_t count = t->opcode == Op::OpTypeStruct ? uint32_t(t->words.size())
                                                          : uint32_t(*m_.constant_value(t->word(1)));
      Instruction composite(Op::OpCompositeConstruct, type, m_.new_id());
      for (uint32_t k = 0; k < count; ++k)
        composite.id(assemble(t->opcode == Op::OpTypeStruct ? t->word(k) : t->word(0), parts, used));
      const uint32_t result = composite.result_id;
      out_->push_back(std::move(composite));
      return result;
    }

    Module& m_;
    const ValueTypes& types_;
    const Candidate& c_;
    Views views_;
    uint32_t uint_;
    std::unordered_map<uint32_t, uint32_t> offset_;  // derived pointer → its offset value
    std::vector<Instruction>* out_ = nullptr;
  };

  static void rewrite(Module& m, Function& f, const ValueTypes& types, const Candidate& c, uint32_t binding,
                      bool aliased) {
    Rewriter(m, types, c, declare_views(m, c, binding, aliased)).run(f);
  }
};

}  // namespace

std::unique_ptr<Pass> make_bind_storage_buffers() { return std::make_unique<BindStorageBuffers>(); }

}  // namespace vkcl::spirv
