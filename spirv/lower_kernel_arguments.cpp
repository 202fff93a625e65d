// lower_kernel_arguments: kernel parameters become push constants and
// Workgroup arrays, and every kernel takes no parameters.
//
// Why push constants and buffer device addresses: OpenCL global pointers are
// plain addresses that kernels offset, cast and compare; PhysicalStorageBuffer64
// keeps that model without descriptor sets, and a push constant is the
// cheapest per-dispatch data Vulkan has. So:
//   __global / __constant T*  → a storage-buffer binding where bind_storage_buffers
//                               bound it, else a PhysicalStorageBuffer pointer member
//                               (8 bytes); the pointer type itself is rewritten by
//                               legalize_pointers
//   scalars and vectors       → a member of their type, OpenCL alignment, except
//                               those of 8- and 16-bit components (char, short,
//                               half, and their vectors): 32-bit words (a uint, or
//                               a uvecN of their bytes, at least 4-aligned; char,
//                               short and char2 get a word of their own, the value
//                               in its low bits) rebuilt after the load by
//                               conversions, bitcasts and shuffles; 8/16-bit types
//                               in push constants need StoragePushConstant8/16
//                               (storagePushConstant8/16, which many devices lack),
//                               and in the argument buffer 8/16-bit storage, so
//                               no module needs those because of its arguments
//   structs and unions        → (by value: the translator's pointer to a private
//                               copy) their bytes at OpenCL's layout and
//                               alignment, as 32-bit words (uint[n]); each load
//                               through the pointer at a constant offset is
//                               rebuilt from the words (bit operations and
//                               bitcasts), which also reads a union through any
//                               of its members; a pointer used any other way (a
//                               run-time index, a store) gets a Function
//                               variable initialised with the whole value
//   __local T*                → a Workgroup T[n] whose length n is a spec constant
//                               (ids from 3 up), the parameter becomes &array[0]
// Member offsets and spec ids go into the reflection. Not handled yet (each a
// CompileError): pointers to __private memory, images.
// The arguments are the block's first members, laid out from offset 0; where
// they and the ND-range fields would pass Vulkan's guaranteed 128 bytes of
// push constants, emit_push_constant_blocks moves them, at the same offsets,
// into an argument buffer that the block points to.
#include <algorithm>
#include <optional>
#include <span>
#include <unordered_map>

#include "compile_error.h"
#include "instruction_builder.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

class LowerKernelArguments final : public Pass {
 public:
  std::string_view name() const override { return "lower_kernel_arguments"; }

  void run(Module& m, LoweringContext& context) override {
    for (KernelState& kernel : context.kernels) lower(m, context, kernel);
  }

 private:
  static void lower(Module& m, LoweringContext& context, KernelState& kernel) {
    Function& function = function_by_id(m, kernel.function);
    KernelReflection& reflection = context.reflection_of(kernel);
    std::vector<Instruction> prologue;
    std::vector<ByValue> by_value;

    uint32_t index = 0;
    for (const Instruction& param : function.code) {
      if (param.opcode != Op::OpFunctionParameter) continue;
      KernelArg& arg = reflection.args.emplace_back();
      arg.index = index++;
      arg.name = m.name_of(param.result_id);
      const std::string what = "kernel '" + reflection.name + "' argument " + std::to_string(arg.index) +
                               (arg.name.empty() ? "" : " ('" + arg.name + "')");
      auto storage = m.storage_class_of(param.type_id);
      if (!storage) {
        const Instruction* type = m.find_global(param.type_id);
        if (type && type->opcode == Op::OpTypeBool) throw ProgramError(what + ": bool is not a valid kernel argument type");
        arg.kind = ArgKind::Scalar;
        arg.size = m.size_of(param.type_id);
        if (is_narrow(m, param.type_id)) {
          arg.offset = add_narrow_argument(m, kernel, param, prologue);
          continue;
        }
        arg.offset = add_push_constant(m, kernel, param, arg.size, m.alignment_of(param.type_id), prologue);
        continue;
      }
      switch (*storage) {
        case spv::StorageClass::Function: {  // a struct or union passed by value
          arg.kind = ArgKind::Scalar;
          const uint32_t pointee = m.pointee_of(param.type_id);
          arg.size = m.size_of(pointee);
          const uint32_t words = (arg.size + 3) / 4;
          const uint32_t member =
              kernel.push_constants.add_member(word_array(m, words), words * 4, std::max(4u, m.alignment_of(pointee)));
          arg.offset = kernel.push_constants.member_offsets[member];
          by_value.push_back({param.result_id, param.type_id, load_push_constant(m, kernel, member, prologue)});
          break;
        }
        case spv::StorageClass::CrossWorkgroup:
        case spv::StorageClass::UniformConstant:
          arg.kind = *storage == spv::StorageClass::CrossWorkgroup ? ArgKind::GlobalPointer : ArgKind::ConstantPointer;
          if (auto bound = context.storage_buffer_bindings.find(param.result_id);
              bound != context.storage_buffer_bindings.end()) {
            arg.binding = bound->second;  // bind_storage_buffers left the parameter unused
            break;
          }
          arg.size = 8;
          arg.offset = add_push_constant(m, kernel, param, 8, 8, prologue);
          break;
        case spv::StorageClass::Workgroup:
          arg.kind = ArgKind::LocalPointer;
          arg.spec_id = context.next_spec_id++;
          arg.element_size = m.size_of(m.pointee_of(param.type_id));
          declare_local_array(m, param, arg.spec_id, prologue);
          break;
        default:
          throw ProgramError(what + ": pointers to this address space (SPIR-V storage class " +
                             std::to_string(uint32_t(*storage)) + ") are not supported as kernel arguments yet");
      }
    }

    kernel.push_constants.argument_members = uint32_t(kernel.push_constants.member_types.size());
    kernel.push_constants.argument_bytes = kernel.push_constants.size;
    if (kernel.push_constants.argument_bytes > kMaxArgumentBufferSize)
      throw ProgramError("kernel '" + reflection.name + "': its arguments take " +
                         std::to_string(kernel.push_constants.argument_bytes) + " bytes; vkcl passes at most " +
                         std::to_string(kMaxArgumentBufferSize) + " bytes of kernel arguments");
    std::erase_if(function.code, [](const Instruction& i) { return i.opcode == Op::OpFunctionParameter; });
    function.code.front().words.back() = m.type_function(m.type_void());
    function.code.insert(function.code.begin() + ptrdiff_t(entry_insertion_point(function)), prologue.begin(),
                         prologue.end());
    for (const ByValue& argument : by_value) lower_by_value(m, function, argument);
  }

  // ---------------------------------------------------------------------------
  // Arguments passed as 32-bit words

  // A by-value argument: its pointer parameter, and the loaded uint[n] of its bytes.
  struct ByValue {
    uint32_t pointer = 0;
    uint32_t pointer_type = 0;
    uint32_t words = 0;
  };

  static uint32_t word_array(Module& m, uint32_t words) {
    const uint32_t array = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpTypeArray, 0, array).id(m.type_int(32)).id(m.constant_u32(words))));
    m.decorate(array, spv::Decoration::ArrayStride, std::array{4u});
    return array;
  }

  // Whether `type` is a scalar or vector whose components are 8 or 16 bits wide.
  static bool is_narrow(const Module& m, uint32_t type) {
    const Instruction* t = m.find_global(type);
    if (t && t->opcode == Op::OpTypeVector) t = m.find_global(t->word(0));
    return t && (t->opcode == Op::OpTypeInt || t->opcode == Op::OpTypeFloat) && t->word(0) < 32;
  }

  // An 8- or 16-bit scalar or vector as 32-bit words: a uint or a uvecN
  // member (N = its size / 4, 1 for 2-byte values, whose bytes the host
  // writes at the word's start) at its OpenCL alignment, at least 4; the
  // parameter becomes the value rebuilt from them. The member keeps this type
  // when emit_push_constant_blocks moves it into an argument buffer.
  static uint32_t add_narrow_argument(Module& m, KernelState& kernel, const Instruction& param,
                                      std::vector<Instruction>& prologue) {
    const uint32_t words = (m.size_of(param.type_id) + 3) / 4;
    const uint32_t word_type = words == 1 ? m.type_int(32) : m.type_vector(m.type_int(32), words);
    const uint32_t member =
        kernel.push_constants.add_member(word_type, words * 4, std::max(4u, m.alignment_of(param.type_id)));
    const uint32_t loaded = load_push_constant(m, kernel, member, prologue);
    rebuild_narrow(m, prologue, loaded, words, param.type_id, param.result_id);
    return kernel.push_constants.member_offsets[member];
  }

  // The value of the 8/16-bit scalar or vector `type` from `words` (a uint
  // when `count` is 1, else a uvec of `count`) holding its bytes from the
  // first. Scalars: truncated (OpUConvert). Vectors of 2 to 4 components: the
  // words bitcast to a vector of the component's integer type filling them
  // (uint -> v4uchar or v2ushort, uvec2 -> v4ushort), shuffled down to
  // the argument's components where fewer (char2 and char3 from v4uchar,
  // short3 from v4ushort: no 16-bit type for a char2), then bitcast to the
  // argument's type where it differs (half). Vectors of 8 and 16 components
  // (no bitcast or shuffle on them once lower_long_vectors has made them
  // arrays): each 32 or 64 bits of four components bitcast to a vector of
  // four and every component extracted, then put together. The last
  // instruction defines `result` (no copy of a half between: a half that is
  // only bitcast, as_ushort2(h), needs no Float16, declare_vulkan_module).
  static void rebuild_narrow(Module& m, std::vector<Instruction>& out, uint32_t words, uint32_t count,
                             uint32_t type, uint32_t result) {
    ValueTypes types;  // the builder records its values' types; nothing else is asked of it
    InstructionBuilder b(m, types, out);
    b.finish(build_narrow(b, words, count, type), result);
  }

  static uint32_t build_narrow(InstructionBuilder& b, uint32_t words, uint32_t count, uint32_t type) {
    Module& m = b.module();
    const Instruction* t = m.find_global(type);
    const bool vector = t->opcode == Op::OpTypeVector;
    const uint32_t component = vector ? t->word(0) : type;
    const uint32_t components = vector ? t->word(1) : 1;
    const uint32_t bits = m.find_global(component)->word(0);
    const uint32_t integer = m.type_int(bits);  // char, short (and for half: its bits)
    auto as = [&](uint32_t target, uint32_t value, uint32_t value_type) {
      return target == value_type ? value : b.op(Op::OpBitcast, target, {value});
    };
    if (!vector) return as(type, b.op(Op::OpUConvert, integer, {words}), integer);
    if (components <= 4) {
      const uint32_t filled = count * 32 / bits;
      uint32_t value_type = b.int_type(bits, filled);
      uint32_t value = b.op(Op::OpBitcast, value_type, {words});
      if (components < filled) {
        const uint32_t narrowed = b.int_type(bits, components);
        Instruction shuffle(Op::OpVectorShuffle, narrowed, m.new_id());
        shuffle.id(value).id(value);
        for (uint32_t c = 0; c < components; ++c) shuffle.literal(c);
        value = shuffle.result_id;
        value_type = narrowed;
        b.emit(std::move(shuffle));
      }
      return as(type, value, value_type);
    }
    const uint32_t uint_type = m.type_int(32);
    const uint32_t quad_words = 4 * bits / 32;  // 1 or 2
    auto word = [&](uint32_t index) { return count == 1 ? words : b.extract(words, uint_type, index); };
    std::vector<uint32_t> parts;
    for (uint32_t quad = 0; quad < components / 4; ++quad) {
      const uint32_t source = quad_words == 1 ? word(quad)
                                              : b.op(Op::OpCompositeConstruct, b.int_type(32, 2),
                                                     {word(2 * quad), word(2 * quad + 1)});
      const uint32_t four = b.op(Op::OpBitcast, b.int_type(bits, 4), {source});
      for (uint32_t c = 0; c < 4; ++c) parts.push_back(as(component, b.extract(four, integer, c), integer));
    }
    return construct(b, type, parts);
  }

  static uint32_t construct(InstructionBuilder& b, uint32_t type, std::span<const uint32_t> parts) {
    Instruction i(Op::OpCompositeConstruct, type, b.module().new_id());
    for (uint32_t part : parts) i.id(part);
    const uint32_t id = i.result_id;
    b.emit(std::move(i));
    return id;
  }

  // Builds values of any type from bytes held in 32-bit words (a uint[n]
  // whose elements are extracted), at OpenCL's layout, little-endian.
  struct WordReader {
    InstructionBuilder& b;
    uint32_t words;  // the loaded word array

    uint32_t word(uint32_t index) { return b.extract(words, b.module().type_int(32), index); }

    // `bits` (8, 16 or 32) bits at byte `offset`, as a uint.
    uint32_t bits32(uint32_t offset, uint32_t bits) {
      Module& m = b.module();
      const uint32_t uint_type = m.type_int(32);
      const uint32_t shift = (offset % 4) * 8;
      uint32_t value = word(offset / 4);
      if (shift != 0) value = b.op(Op::OpShiftRightLogical, uint_type, {value, m.constant_u32(shift)});
      if (shift + bits > 32) {
        const uint32_t high = b.op(Op::OpShiftLeftLogical, uint_type, {word(offset / 4 + 1), m.constant_u32(32 - shift)});
        value = b.op(Op::OpBitwiseOr, uint_type, {value, high});
      }
      return value;
    }

    uint32_t read(uint32_t type, uint32_t offset) {
      Module& m = b.module();
      const Instruction t = *m.find_global(type);
      const uint32_t uint_type = m.type_int(32);
      switch (t.opcode) {
        case Op::OpTypeInt:
        case Op::OpTypeFloat: {
          const uint32_t bits = t.word(0);
          if (bits == 64) {
            const uint32_t low = bits32(offset, 32), high = bits32(offset + 4, 32);
            return b.op(Op::OpBitcast, type, {b.op(Op::OpCompositeConstruct, m.type_vector(uint_type, 2), {low, high})});
          }
          uint32_t value = bits32(offset, bits);
          if (bits < 32) value = b.op(Op::OpUConvert, m.type_int(bits), {value});
          const uint32_t as_int = bits < 32 ? m.type_int(bits) : uint_type;
          return type == as_int ? value : b.op(Op::OpBitcast, type, {value});
        }
        case Op::OpTypeVector:
        case Op::OpTypeArray: {
          const uint32_t element = t.word(0);
          const uint64_t count = t.opcode == Op::OpTypeVector ? t.word(1) : *m.constant_value(t.word(1));
          const uint32_t stride = m.size_of(element);
          std::vector<uint32_t> parts;
          for (uint64_t i = 0; i < count; ++i) parts.push_back(read(element, offset + uint32_t(i) * stride));
          return construct(b, type, parts);
        }
        case Op::OpTypeStruct: {
          std::vector<uint32_t> parts;
          for (size_t member = 0; member < t.words.size(); ++member)
            parts.push_back(read(t.word(member), offset + member_offset(m, type, member)));
          return construct(b, type, parts);
        }
        default:
          throw ProgramError("a kernel argument passed by value holds a type vkcl cannot pass (SPIR-V opcode " +
                             std::to_string(uint32_t(t.opcode)) + ")");
      }
    }
  };

  // Byte offset of member `index` of a struct, at OpenCL's layout (Module::layout_of's rule).
  static uint32_t member_offset(const Module& m, uint32_t structure, size_t index) {
    const Instruction* t = m.find_global(structure);
    uint32_t offset = 0;
    for (size_t member = 0; member <= index; ++member) {
      const Module::Layout layout = m.layout_of(t->word(member));
      offset = (offset + layout.alignment - 1) / layout.alignment * layout.alignment;
      if (member < index) offset += layout.size;
    }
    return offset;
  }

  static bool is_chain(Op op) {
    return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain || op == Op::OpPtrAccessChain ||
           op == Op::OpInBoundsPtrAccessChain;
  }

  // The byte offset `chain` reaches from `base_offset`, when every index is a constant.
  static std::optional<uint32_t> chain_offset(const Module& m, const Instruction& chain, uint32_t base_type,
                                              uint32_t base_offset) {
    uint32_t offset = base_offset;
    uint32_t type = m.pointee_of(base_type);
    size_t first = 1;
    if (chain.opcode == Op::OpPtrAccessChain || chain.opcode == Op::OpInBoundsPtrAccessChain) {
      auto element = m.constant_value(chain.word(1));
      if (!element) return std::nullopt;
      offset += uint32_t(*element) * m.size_of(type);
      first = 2;
    }
    for (size_t w = first; w < chain.words.size(); ++w) {
      auto index = m.constant_value(chain.word(w));
      const Instruction* t = m.find_global(type);
      if (!index || !t) return std::nullopt;
      if (t->opcode == Op::OpTypeStruct) {
        offset += member_offset(m, type, size_t(*index));
        type = t->word(size_t(*index));
      } else if (t->opcode == Op::OpTypeArray || t->opcode == Op::OpTypeVector) {
        type = t->word(0);
        offset += uint32_t(*index) * m.size_of(type);
      } else {
        return std::nullopt;
      }
    }
    return offset;
  }

  // Replaces the by-value argument's pointer: loads at constant offsets are
  // rebuilt from the words; any other use gets a Function variable holding the value.
  static void lower_by_value(Module& m, Function& function, const ByValue& argument) {
    ValueTypes types = value_types(m, function);
    types[argument.pointer] = argument.pointer_type;  // the parameter is gone
    std::unordered_map<uint32_t, uint32_t> offsets{{argument.pointer, 0}};
    bool direct = true;
    for (const Instruction& i : function.code) {
      bool uses = false;
      for (size_t w = 0; w < i.words.size(); ++w) uses |= i.is_id[w] && offsets.count(i.words[w]);
      if (!uses) continue;
      if (is_chain(i.opcode) && offsets.count(i.word(0))) {
        auto offset = chain_offset(m, i, types.at(i.word(0)), offsets.at(i.word(0)));
        if (offset) {
          offsets[i.result_id] = *offset;
          continue;
        }
      } else if (i.opcode == Op::OpBitcast && offsets.count(i.word(0))) {
        offsets[i.result_id] = offsets.at(i.word(0));
        continue;
      } else if (i.opcode == Op::OpLoad && offsets.count(i.word(0))) {
        continue;
      }
      direct = false;
      break;
    }
    std::vector<Instruction> code;
    code.reserve(function.code.size());
    if (direct) {
      for (Instruction& i : function.code) {
        if ((is_chain(i.opcode) || i.opcode == Op::OpBitcast) && offsets.count(i.result_id)) continue;
        if (i.opcode == Op::OpLoad && offsets.count(i.word(0))) {
          InstructionBuilder b(m, types, code);
          WordReader reader{b, argument.words};
          b.finish(reader.read(i.type_id, offsets.at(i.word(0))), i.result_id);
          continue;
        }
        code.push_back(std::move(i));
      }
      function.code = std::move(code);
      return;
    }
    // A private copy: OpVariable first in the entry block, the store where the prologue ends.
    std::vector<Instruction> init;
    InstructionBuilder b(m, types, init);
    WordReader reader{b, argument.words};
    const uint32_t value = reader.read(m.pointee_of(argument.pointer_type), 0);
    init.push_back(std::move(Instruction(Op::OpStore, 0, 0).id(argument.pointer).id(value)));
    const size_t at = entry_insertion_point(function);
    size_t prologue_end = at;
    while (prologue_end < function.code.size() && function.code[prologue_end].opcode != Op::OpLabel &&
           function.code[prologue_end].result_id != argument.words)
      ++prologue_end;
    function.code.insert(function.code.begin() + ptrdiff_t(prologue_end) + 1, init.begin(), init.end());
    function.code.insert(function.code.begin() + ptrdiff_t(at),
                         std::move(Instruction(Op::OpVariable, argument.pointer_type, argument.pointer)
                                       .literal(uint32_t(spv::StorageClass::Function))));
  }

  // The parameter's id becomes the value loaded from its push-constant member.
  static uint32_t add_push_constant(Module& m, KernelState& kernel, const Instruction& param, uint32_t size,
                                    uint32_t alignment, std::vector<Instruction>& prologue) {
    uint32_t member = kernel.push_constants.add_member(param.type_id, size, alignment);
    load_push_constant(m, kernel, member, prologue, param.result_id);
    return kernel.push_constants.member_offsets[member];
  }

  static void declare_local_array(Module& m, const Instruction& param, uint32_t spec_id,
                                  std::vector<Instruction>& prologue) {
    uint32_t uint_type = m.type_int(32);
    uint32_t length = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpSpecConstant, uint_type, length).literal(1)));
    m.decorate(length, spv::Decoration::SpecId, std::array{spec_id});
    uint32_t array_type = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpTypeArray, 0, array_type).id(m.pointee_of(param.type_id)).id(length)));
    uint32_t variable = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpVariable, m.type_pointer(spv::StorageClass::Workgroup, array_type), variable)
                                      .literal(uint32_t(spv::StorageClass::Workgroup))));
    std::string name = m.name_of(param.result_id);
    if (!name.empty()) m.debug.push_back(std::move(Instruction(Op::OpName, 0, 0).id(variable).string(name)));
    prologue.push_back(std::move(Instruction(Op::OpAccessChain, param.type_id, param.result_id).id(variable).id(m.constant_u32(0))));
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_kernel_arguments() { return std::make_unique<LowerKernelArguments>(); }

}  // namespace vkcl::spirv
