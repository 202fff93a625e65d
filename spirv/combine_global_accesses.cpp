// combine_global_accesses: loads (and stores) of neighbouring bytes of global
// memory, in one block with nothing between them that could write (or read)
// those bytes, become one access of 4, 8 or 16 bytes.
//
// Vulkan has no vectors of more than 4 components, so clc splits a char16 or
// a float8 into scalars before translation (tools/clc/legalize_vectors.h),
// including its loads and stores; SROA splits struct copies into their
// fields; a byte view of a word reads it byte by byte. NVIDIA's Vulkan driver
// (580.159.04, H100) does not put such accesses back together: a kernel that
// adds two char16 buffers ran at 0.11x of NVIDIA's OpenCL with sixteen byte
// loads and stores per work-item (docs/performance.md). Here each run of
// accessed bytes is covered by the widest aligned chunks (uint, uvec2, uvec4)
// whose every byte some access reads (or writes), and each access becomes a
// piece of its chunk (a component, a shuffle, a bitcast). Accesses a chunk
// cannot hold whole (one that straddles a word, say) stay as they were.
//
// Only PhysicalStorageBuffer accesses of scalars and vectors whose memory
// operands are at most Aligned and NonPrivatePointer, outside the argument
// buffer, take part: a volatile
// or an atomic access, a barrier, a call, or the end of the block closes
// every group. Loads move up to the first load of their group, so a group
// ends at any instruction that may write global memory (a store to any
// buffer: another argument may alias); stores move down to the last store of
// their chunk, so a store group ends at any global load, at a store to
// another buffer, and at a store that overwrites a byte of the group. Only
// bytes the kernel accessed are read or written: no new data race, and no
// access past what the kernel touched.
//
// Alignment: an access at byte offset o from its group's base with
// `Aligned a` says that base + o is a multiple of a; the largest such a is
// what chunks are aligned against.
//
// LLVM's LoadStoreVectorizer does this on LLVM IR, but it forms vectors of
// the element type (<16 x i8>), which clc would split again, and it works on
// __private and __local memory too, where logical addressing allows no
// pointer casts; here, after lowering, only buffer-device-address accesses
// are seen. Runs after lower_long_vectors and before declare_vulkan_module
// (which then finds the 8- and 16-bit vector types the pieces use).
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "instruction_builder.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::Decoration;
using spv::MemoryAccessMask;
using spv::StorageClass;

constexpr uint32_t kAllowedAccessFlags =
    uint32_t(MemoryAccessMask::Aligned) | uint32_t(MemoryAccessMask::NonPrivatePointer);

// A pointer as a base, a constant byte offset from it, and, for an
// OpPtrAccessChain whose first index is a run-time value and whose other
// indices are constants (what SROA makes of `in[k].field`), that index: the
// base is then element `element` of `pointer`.
struct Base {
  uint32_t pointer = 0;
  uint32_t element = 0;  // a run-time element index, or 0
  auto operator<=>(const Base&) const = default;
};
struct Address {
  Base base;
  int64_t offset = 0;
};

// One load or store that may join a chunk.
struct Access {
  size_t position = 0;  // in Function::code
  int64_t offset = 0;   // bytes from the group's base
  uint32_t size = 0;
  uint32_t alignment = 1;
  uint32_t type = 0;    // of the value loaded or stored
  uint32_t value = 0;   // the load's result or the stored object
  uint32_t flags = 0;   // its memory operands: Aligned, and NonPrivatePointer under the Vulkan memory model
  bool is_store = false;
};

// A chunk of 4, 8 or 16 bytes and the accesses it replaces.
struct Chunk {
  int64_t offset = 0;
  uint32_t size = 0;
  std::vector<const Access*> accesses;  // in code order
};


bool is_block_end(Op op) {
  switch (op) {
    case Op::OpBranch: case Op::OpBranchConditional: case Op::OpSwitch: case Op::OpReturn: case Op::OpReturnValue:
    case Op::OpKill: case Op::OpUnreachable: case Op::OpTerminateInvocation: case Op::OpLabel:
      return true;
    default: return false;
  }
}

class CombineGlobalAccesses final : public Pass {
 public:
  std::string_view name() const override { return "combine_global_accesses"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) FunctionRewrite(m, f).run();
  }

 private:
  class FunctionRewrite {
   public:
    FunctionRewrite(Module& m, Function& f) : m_(m), f_(f), types_(value_types(m, f)) {}

    void run() {
      for (size_t p = 0; p < f_.code.size(); ++p) visit(p);
      flush_loads();
      flush_stores();
      if (replacements_.empty()) return;
      std::vector<Instruction> code;
      code.reserve(f_.code.size());
      for (size_t p = 0; p < f_.code.size(); ++p) {
        auto before = before_.find(p);
        if (before != before_.end()) code.insert(code.end(), before->second.begin(), before->second.end());
        auto replaced = replacements_.find(p);
        if (replaced == replacements_.end()) code.push_back(std::move(f_.code[p]));
        else code.insert(code.end(), replaced->second.begin(), replaced->second.end());
      }
      f_.code = std::move(code);
    }

   private:
    void visit(size_t p) {
      const Instruction& i = f_.code[p];
      if (i.result_id && is_chain(i.opcode)) return record_chain(i);
      if (i.opcode == Op::OpBitcast || i.opcode == Op::OpCopyObject) {
        if (is_global_pointer(i.type_id)) addresses_[i.result_id] = address_of(i.word(0));
        return;
      }
      if (i.opcode == Op::OpLoad && is_global_pointer(type_of(i.word(0)))) {
        flush_stores();  // a store may not move below a load that might read it
        if (std::optional<Access> a = candidate(p, false)) return add(open_loads_, *a);
        return flush_loads();  // a volatile or acquiring load: nothing moves across it
      }
      if (i.opcode == Op::OpStore && is_global_pointer(type_of(i.word(0)))) {
        flush_loads();  // a load may not move above a store that might write what it reads
        std::optional<Access> a = candidate(p, true);
        if (!a) return flush_stores();
        const Base base = address_of(i.word(0)).base;
        for (auto it = open_stores_.begin(); it != open_stores_.end();) {  // other buffers may alias this one
          if (it->first == base) { ++it; continue; }
          combine(it->second);
          it = open_stores_.erase(it);
        }
        auto group = open_stores_.find(base);
        if (group != open_stores_.end() && overlaps_any(group->second, *a)) {  // the later store must win
          combine(group->second);
          open_stores_.erase(group);
        }
        return add(open_stores_, *a);
      }
      if (is_block_end(i.opcode) || is_atomic(i.opcode) || i.opcode == Op::OpFunctionCall ||
          i.opcode == Op::OpControlBarrier || i.opcode == Op::OpMemoryBarrier || i.opcode == Op::OpCopyMemory ||
          i.opcode == Op::OpCopyMemorySized) {
        flush_loads();
        flush_stores();
      }
    }

    // --- addresses ---

    uint32_t type_of(uint32_t value) const {
      auto it = types_.find(value);
      return it == types_.end() ? 0 : it->second;
    }

    bool is_global_pointer(uint32_t type) const {
      return type != 0 && m_.storage_class_of(type) == StorageClass::PhysicalStorageBuffer;
    }

    Address address_of(uint32_t pointer) const {
      auto it = addresses_.find(pointer);
      return it == addresses_.end() ? Address{{pointer, 0}, 0} : it->second;
    }

    void record_chain(const Instruction& chain) {
      if (!is_global_pointer(chain.type_id)) return;
      const uint32_t base = chain.word(0);
      Address address = address_of(base);
      const bool is_ptr_chain = chain.opcode == Op::OpPtrAccessChain || chain.opcode == Op::OpInBoundsPtrAccessChain;
      uint32_t type = m_.pointee_of(type_of(base));
      for (size_t w = 1; w < chain.words.size(); ++w) {
        const std::optional<int64_t> index = signed_constant(chain.word(w));
        std::optional<int64_t> step;
        if (!index && w == 1 && is_ptr_chain && m_.decoration_literal(type_of(base), Decoration::ArrayStride)) {
          address = Address{{base, chain.word(1)}, 0};  // element `index` of the base: a base of its own
          continue;
        }
        if (index && w == 1 && is_ptr_chain) {
          if (auto stride = m_.decoration_literal(type_of(base), Decoration::ArrayStride))
            step = int64_t(*stride) * *index;
        } else if (index && *index >= 0) {
          step = step_into(type, uint32_t(*index));
          if (step) type = element_of(type, uint32_t(*index));
        }
        if (!step || type == 0) {  // a run-time index: the chain is a base of its own
          addresses_[chain.result_id] = Address{{chain.result_id, 0}, 0};
          return;
        }
        address.offset += *step;
      }
      addresses_[chain.result_id] = address;
    }

    // A constant integer index, read as signed (SPIR-V indices are).
    std::optional<int64_t> signed_constant(uint32_t id) const {
      const std::optional<uint64_t> bits = m_.constant_value(id);
      const Instruction* type = m_.find_global(type_of(id));
      if (!bits || type == nullptr || type->opcode != Op::OpTypeInt) return std::nullopt;
      const uint32_t width = type->word(0);
      if (width >= 64) return int64_t(*bits);
      const uint64_t sign = uint64_t(1) << (width - 1), value = *bits & ((sign << 1) - 1);
      return int64_t(value ^ sign) - int64_t(sign);
    }

    // The byte offset of element `index` of `type`, from its layout decorations.
    std::optional<int64_t> step_into(uint32_t type, uint32_t index) const {
      const Instruction* t = m_.find_global(type);
      if (t == nullptr) return std::nullopt;
      if (t->opcode == Op::OpTypeArray || t->opcode == Op::OpTypeRuntimeArray) {
        auto stride = m_.decoration_literal(type, Decoration::ArrayStride);
        if (!stride) return std::nullopt;
        return int64_t(*stride) * index;
      }
      if (t->opcode == Op::OpTypeVector) return int64_t(m_.size_of(t->word(0))) * index;
      if (t->opcode == Op::OpTypeStruct) {
        for (const Instruction& a : m_.annotations)
          if (a.opcode == Op::OpMemberDecorate && a.word(0) == type && a.word(1) == index &&
              a.word(2) == uint32_t(Decoration::Offset))
            return int64_t(a.word(3));
      }
      return std::nullopt;
    }

    uint32_t element_of(uint32_t type, uint32_t index) const {
      const Instruction* t = m_.find_global(type);
      if (t == nullptr) return 0;
      if (t->opcode == Op::OpTypeStruct) return index < t->words.size() ? t->word(index) : 0;
      if (t->opcode == Op::OpTypeArray || t->opcode == Op::OpTypeRuntimeArray || t->opcode == Op::OpTypeVector)
        return t->word(0);
      return 0;
    }

    // --- groups ---

    // A load or store of a scalar or vector of 1, 2, 4, 8 or 16 bytes with
    // no memory operands other than Aligned and NonPrivatePointer.
    std::optional<Access> candidate(size_t p, bool is_store) const {
      const Instruction& i = f_.code[p];
      const size_t flags_word = is_store ? 2 : 1;
      uint32_t flags = i.words.size() > flags_word ? i.word(flags_word) : 0;
      if ((flags & ~kAllowedAccessFlags) != 0 || !(flags & uint32_t(MemoryAccessMask::Aligned))) return std::nullopt;
      Access a;
      a.position = p;
      a.is_store = is_store;
      a.value = is_store ? i.word(1) : i.result_id;
      a.type = is_store ? type_of(a.value) : i.type_id;
      a.flags = flags;
      a.alignment = i.word(flags_word + 1);
      const Address address = address_of(i.word(0));
      a.offset = address.offset;
      if (!is_plain_value(a.type) || is_argument_buffer(address.base.pointer)) return std::nullopt;
      a.size = m_.size_of(a.type);
      if (a.size != 1 && a.size != 2 && a.size != 4 && a.size != 8 && a.size != 16) return std::nullopt;
      if (a.alignment == 0 || (a.alignment & (a.alignment - 1)) != 0) return std::nullopt;
      return a;
    }

    // The argument buffer (emit_push_constant_blocks): one address for the
    // whole work-group, whose words are rebuilt into narrow vectors one by one.
    bool is_argument_buffer(uint32_t pointer) const {
      const uint32_t type = type_of(pointer);
      return type != 0 && m_.has_decoration(m_.pointee_of(type), Decoration::Block);
    }

    bool is_plain_value(uint32_t type) const {
      const Instruction* t = m_.find_global(type);
      if (t == nullptr) return false;
      if (t->opcode == Op::OpTypeVector) {
        if (t->word(1) == 3) return false;  // its layout size (padded) is not its bits
        t = m_.find_global(t->word(0));
        if (t == nullptr) return false;
      }
      return t->opcode == Op::OpTypeInt || t->opcode == Op::OpTypeFloat;
    }

    using Groups = std::map<Base, std::vector<Access>>;  // in base-id order (deterministic output)

    void add(Groups& groups, const Access& a) { groups[address_of(f_.code[a.position].word(0)).base].push_back(a); }

    static bool overlaps_any(const std::vector<Access>& group, const Access& a) {
      return std::any_of(group.begin(), group.end(), [&](const Access& b) {
        return a.offset < b.offset + b.size && b.offset < a.offset + a.size;
      });
    }

    void flush_loads() {
      for (auto& [base, group] : open_loads_) combine(group);
      open_loads_.clear();
    }
    void flush_stores() {
      for (auto& [base, group] : open_stores_) combine(group);
      open_stores_.clear();
    }

    // Covers the group's runs of accessed bytes with chunks and rewrites them.
    void combine(std::vector<Access>& group) {
      if (group.size() < 2) return;
      // What the accesses say about the base's alignment: base + origin is a
      // multiple of `known` (at most 16, the widest chunk).
      uint32_t known = 1;
      int64_t origin = 0;
      for (const Access& a : group)
        if (std::min(a.alignment, 16u) > known) known = std::min(a.alignment, 16u), origin = a.offset;
      if (known < 4) return;
      std::vector<const Access*> sorted;
      for (const Access& a : group) sorted.push_back(&a);
      std::sort(sorted.begin(), sorted.end(), [](const Access* x, const Access* y) { return x->offset < y->offset; });
      size_t first = 0;
      while (first < sorted.size()) {  // one run of contiguous (or overlapping) accesses at a time
        int64_t end = sorted[first]->offset + sorted[first]->size;
        size_t last = first + 1;
        while (last < sorted.size() && sorted[last]->offset <= end)
          end = std::max(end, sorted[last]->offset + int64_t(sorted[last]->size)), ++last;
        cover_run({sorted.begin() + first, sorted.begin() + last}, end, known, origin);
        first = last;
      }
    }

    void cover_run(std::span<const Access* const> run, int64_t end, uint32_t known, int64_t origin) {
      int64_t at = run.front()->offset;
      while (at < end) {
        bool placed = false;
        for (uint32_t size : {16u, 8u, 4u}) {
          if (size > known || ((at - origin) % size + size) % size != 0 || at + size > end) continue;
          Chunk chunk{at, size, {}};
          for (const Access* a : run)
            if (fits(*a, chunk)) chunk.accesses.push_back(a);
          if (chunk.accesses.size() < 2) continue;  // one access of the whole chunk is already as wide
          std::sort(chunk.accesses.begin(), chunk.accesses.end(),
                    [](const Access* x, const Access* y) { return x->position < y->position; });
          if (chunk.accesses.front()->is_store ? emit_store(chunk) : emit_load(chunk)) {
            at += size;
            placed = true;
            break;
          }
        }
        if (!placed) ++at;
      }
    }

    // Whether `a` lies in `chunk` as a piece the chunk's words can give:
    // whole words, or part of one word.
    static bool fits(const Access& a, const Chunk& chunk) {
      const int64_t at = a.offset - chunk.offset;
      if (at < 0 || at + a.size > chunk.size) return false;
      if (a.size >= 4) return at % 4 == 0;
      return at % a.size == 0 && at / 4 == (at + a.size - 1) / 4;
    }

    // --- code ---

    // The scalar component type of a scalar or vector type, and its count.
    std::pair<uint32_t, uint32_t> components(uint32_t type) const {
      const Instruction* t = m_.find_global(type);
      if (t->opcode == Op::OpTypeVector) return {t->word(0), t->word(1)};
      return {type, 1};
    }

    uint32_t words_type(uint32_t count) { return count == 1 ? m_.type_int(32) : m_.type_vector(m_.type_int(32), count); }

    // A pointer to the chunk's words, emitted into `out` (the base must be
    // defined before it: it is, being the base of every access of the group).
    std::optional<uint32_t> chunk_pointer(const Chunk& chunk, Base base_address, std::vector<Instruction>& out) {
      if (chunk.offset != 0 && !has_64_bit_integers()) return std::nullopt;  // would ask the device for shaderInt64
      const uint32_t pointer_type = m_.type_pointer(StorageClass::PhysicalStorageBuffer, words_type(chunk.size / 4));
      uint32_t base = base_address.pointer;
      if (base_address.element != 0) {  // the same element the accesses' chains chose
        const uint32_t element = m_.new_id(), type = type_of(base);
        out.push_back(std::move(Instruction(Op::OpPtrAccessChain, type, element).id(base).id(base_address.element)));
        types_[element] = type;
        base = element;
      }
      if (chunk.offset == 0) {
        // Never a cast of a pointer to its own type: NVIDIA's compiler
        // (580.159.04) crashes on one (fold_identity_pointer_casts).
        if (type_of(base) == pointer_type) return base;
        const uint32_t result = m_.new_id();
        out.push_back(std::move(Instruction(Op::OpBitcast, pointer_type, result).id(base)));
        return result;
      }
      const uint32_t result = m_.new_id();
      const uint32_t ulong = m_.type_int(64);
      const uint32_t address = m_.new_id(), moved = m_.new_id();
      out.push_back(std::move(Instruction(Op::OpConvertPtrToU, ulong, address).id(base)));
      out.push_back(std::move(
          Instruction(Op::OpIAdd, ulong, moved).id(address).id(m_.constant_int(ulong, uint64_t(chunk.offset)))));
      out.push_back(std::move(Instruction(Op::OpConvertUToPtr, pointer_type, result).id(moved)));
      return result;
    }

    bool has_64_bit_integers() const {
      return std::any_of(m_.globals.begin(), m_.globals.end(),
                         [](const Instruction& g) { return g.opcode == Op::OpTypeInt && g.word(0) == 64; });
    }

    // The chunk's memory operands: its alignment, and what its accesses share.
    static Instruction access_flags(Instruction i, const Chunk& chunk) {
      uint32_t flags = kAllowedAccessFlags;
      for (const Access* a : chunk.accesses) flags &= a->flags;
      i.literal(flags | uint32_t(MemoryAccessMask::Aligned)).literal(chunk.size);
      return i;
    }

    bool emit_load(const Chunk& chunk) {
      const Access& first = *chunk.accesses.front();
      const Base base = address_of(f_.code[first.position].word(0)).base;
      std::vector<Instruction> head;
      const std::optional<uint32_t> pointer = chunk_pointer(chunk, base, head);
      if (!pointer) return false;
      const uint32_t words = m_.new_id(), type = words_type(chunk.size / 4);
      types_[words] = type;
      head.push_back(access_flags(std::move(Instruction(Op::OpLoad, type, words).id(*pointer)), chunk));
      append(before_[first.position], head);
      for (const Access* a : chunk.accesses) {
        std::vector<Instruction> piece;
        InstructionBuilder b(m_, types_, piece);
        b.finish(piece_of(b, words, chunk, *a), a->value);
        replacements_[a->position] = std::move(piece);
      }
      return true;
    }

    // The value of access `a` from the chunk's loaded words.
    uint32_t piece_of(InstructionBuilder& b, uint32_t words, const Chunk& chunk, const Access& a) {
      const uint32_t at = uint32_t(a.offset - chunk.offset), chunk_words = chunk.size / 4;
      if (a.size >= 4) {
        const uint32_t count = a.size / 4, first_word = at / 4;
        uint32_t value = words;
        if (count != chunk_words) {
          if (count == 1) {
            value = b.extract(words, m_.type_int(32), first_word);
          } else {
            Instruction shuffle(Op::OpVectorShuffle, words_type(count), m_.new_id());
            shuffle.id(words).id(words);
            for (uint32_t w = 0; w < count; ++w) shuffle.literal(first_word + w);
            value = shuffle.result_id;
            b.emit(std::move(shuffle));
          }
        }
        return b.type_of(value) == a.type ? value : b.op(Op::OpBitcast, a.type, {value});
      }
      // Part of one word: the word as a vector of the access's component type.
      const uint32_t word = chunk_words == 1 ? words : b.extract(words, m_.type_int(32), at / 4);
      const auto [component, count] = components(a.type);
      const uint32_t component_size = m_.size_of(component);
      const uint32_t as_vector = b.op(Op::OpBitcast, m_.type_vector(component, 4 / component_size), {word});
      const uint32_t first_component = (at % 4) / component_size;
      if (count == 1) return b.extract(as_vector, component, first_component);
      Instruction shuffle(Op::OpVectorShuffle, a.type, m_.new_id());
      shuffle.id(as_vector).id(as_vector);
      for (uint32_t c = 0; c < count; ++c) shuffle.literal(first_component + c);
      const uint32_t value = shuffle.result_id;
      b.emit(std::move(shuffle));
      return value;
    }

    bool emit_store(const Chunk& chunk) {
      // Every byte of the chunk is written by exactly one of its stores
      // (overlapping stores never share a group); a word written in parts
      // needs parts of one component type, put together as a vector.
      const uint32_t chunk_words = chunk.size / 4;
      std::vector<std::vector<const Access*>> parts(chunk_words);
      std::vector<const Access*> whole;
      uint32_t covered = 0;
      for (const Access* a : chunk.accesses) {
        covered += a->size;
        const uint32_t at = uint32_t(a->offset - chunk.offset);
        if (a->size >= 4) whole.push_back(a);
        else parts[at / 4].push_back(a);
      }
      if (covered != chunk.size) return false;
      for (const auto& word : parts)
        for (const Access* a : word)
          if (components(a->type).first != components(word.front()->type).first) return false;

      const Access& last = *chunk.accesses.back();
      const Base base = address_of(f_.code[last.position].word(0)).base;
      std::vector<Instruction> code;
      const std::optional<uint32_t> pointer = chunk_pointer(chunk, base, code);
      if (!pointer) return false;
      InstructionBuilder b(m_, types_, code);
      std::vector<uint32_t> word_values(chunk_words, 0);
      for (const Access* a : whole) {
        const uint32_t at = uint32_t(a->offset - chunk.offset), count = a->size / 4;
        const uint32_t bits = b.type_of(a->value) == words_type(count) ? a->value
                                                                       : b.op(Op::OpBitcast, words_type(count), {a->value});
        for (uint32_t w = 0; w < count; ++w)
          word_values[at / 4 + w] = count == 1 ? bits : b.extract(bits, m_.type_int(32), w);
      }
      for (uint32_t w = 0; w < chunk_words; ++w) {
        if (parts[w].empty()) continue;
        std::vector<const Access*> in_order = parts[w];
        std::sort(in_order.begin(), in_order.end(), [](const Access* x, const Access* y) { return x->offset < y->offset; });
        const uint32_t component = components(in_order.front()->type).first;
        // Constant parts make a constant word: SPIRV-Tools 2023.1 folds the
        // bitcast of a constant 8-bit vector into an invalid OpConstant.
        if (std::optional<uint32_t> packed = constant_word(in_order)) {
          word_values[w] = m_.constant_u32(*packed);
          continue;
        }
        Instruction construct(Op::OpCompositeConstruct, m_.type_vector(component, 4 / m_.size_of(component)), m_.new_id());
        for (const Access* a : in_order) construct.id(a->value);
        const uint32_t vector = construct.result_id;
        b.emit(std::move(construct));
        word_values[w] = b.op(Op::OpBitcast, m_.type_int(32), {vector});
      }
      uint32_t value = word_values[0];
      if (chunk_words > 1) {
        Instruction construct(Op::OpCompositeConstruct, words_type(chunk_words), m_.new_id());
        for (uint32_t v : word_values) construct.id(v);
        value = construct.result_id;
        b.emit(std::move(construct));
      }
      code.push_back(access_flags(std::move(Instruction(Op::OpStore, 0, 0).id(*pointer).id(value)), chunk));
      for (const Access* a : chunk.accesses) replacements_[a->position] = {};
      replacements_[last.position] = std::move(code);
      return true;
    }

    // The 32-bit word that `parts` (scalar accesses filling one word, in
    // address order) store, where every value is a scalar constant.
    std::optional<uint32_t> constant_word(const std::vector<const Access*>& parts) const {
      uint32_t word = 0, shift = 0;
      for (const Access* a : parts) {
        const std::optional<uint64_t> value = m_.constant_value(a->value);
        if (!value || a->size >= 4) return std::nullopt;
        word |= uint32_t(*value & ((uint64_t(1) << (8 * a->size)) - 1)) << shift;
        shift += 8 * a->size;
      }
      return word;
    }

    static void append(std::vector<Instruction>& to, std::vector<Instruction>& from) {
      for (Instruction& i : from) to.push_back(std::move(i));
    }

    Module& m_;
    Function& f_;
    ValueTypes types_;
    std::unordered_map<uint32_t, Address> addresses_;
    Groups open_loads_, open_stores_;
    std::unordered_map<size_t, std::vector<Instruction>> before_, replacements_;
  };
};

}  // namespace

std::unique_ptr<Pass> make_combine_global_accesses() { return std::make_unique<CombineGlobalAccesses>(); }

}  // namespace vkcl::spirv
