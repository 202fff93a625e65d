// Programs from SPIR-V (clCreateProgramWithIL, cl_khr_il_program): the
// module is checked here only as far as its header (the rest is the
// compiler's, at build time, with a log), and its specialization constants
// are found so that clSetProgramSpecializationConstant can check an id and
// a size. Building reads the module with SPIRV-LLVM-Translator's reader in
// a compile worker (compile_spirv, tools/clc/compiler.h).
#include <cstring>

#include "entry_points.h"
#include "errors.h"
#include "il.h"
#include "program.h"

namespace vkcl::opencl {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

// SPIR-V opcodes and the decoration this reads.
constexpr uint32_t kOpTypeBool = 20, kOpTypeInt = 21, kOpTypeFloat = 22;
constexpr uint32_t kOpSpecConstantTrue = 48, kOpSpecConstantFalse = 49, kOpSpecConstant = 50;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kDecorationSpecId = 1;

}  // namespace

std::string il_version_names() {
  std::string names;
  for (uint32_t minor = 0; minor <= kMaxILMinorVersion; ++minor)
    names += (names.empty() ? "" : " ") + std::string("SPIR-V_1.") + std::to_string(minor);
  return names;
}

std::vector<uint32_t> checked_il(const void* il, size_t length) {
  require(il && length, CL_INVALID_VALUE, "no IL");
  require(length % sizeof(uint32_t) == 0 && length >= 5 * sizeof(uint32_t), CL_INVALID_VALUE,
          "the IL is not a SPIR-V module: not a whole number of words, or shorter than its header");
  std::vector<uint32_t> words(length / sizeof(uint32_t));
  std::memcpy(words.data(), il, length);
  // The other byte order is SPIR-V too, but not one the reader takes.
  require(words[0] == kSpirvMagic, CL_INVALID_VALUE, "the IL is not a SPIR-V module in this machine's byte order");
  const uint32_t version = words[1];
  require((version >> 16) == 1 && ((version >> 8) & 0xff) <= kMaxILMinorVersion && (version & 0xff) == 0,
          CL_INVALID_VALUE, "a SPIR-V version that is not in CL_DEVICE_IL_VERSION");
  return words;
}

std::map<uint32_t, SpecConstantType> spec_constant_types(std::span<const uint32_t> words) {
  std::map<uint32_t, SpecConstantType> types;  // result id of a scalar type → its size
  std::map<uint32_t, uint32_t> spec_ids;       // decorated id → SpecId
  std::map<uint32_t, SpecConstantType> constants;
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) break;  // malformed: the compiler will say so
    const uint32_t* op = &words[at];
    if (opcode == kOpTypeBool && count >= 2) types[op[1]] = {1, true};  // set as a cl_uchar (the specification)
    if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && count >= 3) types[op[1]] = {op[2] / 8, false};
    if (opcode == kOpDecorate && count >= 4 && op[2] == kDecorationSpecId) spec_ids[op[1]] = op[3];
    if ((opcode == kOpSpecConstantTrue || opcode == kOpSpecConstantFalse || opcode == kOpSpecConstant) &&
        count >= 3) {
      auto id = spec_ids.find(op[2]);
      auto type = types.find(op[1]);
      if (id != spec_ids.end() && type != types.end()) constants[id->second] = type->second;
    }
    at += count;
  }
  return constants;
}

void Program::set_spec_constant(uint32_t id, size_t size, const void* value) {
  require(origin_ == Origin::IL, CL_INVALID_PROGRAM, "not a program from IL");
  const std::map<uint32_t, SpecConstantType> types = spec_constant_types(il_);
  auto found = types.find(id);
  require(found != types.end(), CL_INVALID_SPEC_ID, "no specialization constant of that id");
  require(value && size == found->second.size, CL_INVALID_VALUE, "the size is not the specialization constant's");
  uint64_t bits = 0;
  std::memcpy(&bits, value, size);
  if (found->second.is_bool) bits = bits != 0;  // any nonzero cl_uchar is true
  std::lock_guard lock(mutex_);
  spec_values_[id] = bits;
}

std::vector<SpecConstant> Program::spec_constants() const {
  std::lock_guard lock(mutex_);
  std::vector<SpecConstant> list;
  for (const auto& [id, value] : spec_values_) list.push_back({id, value});
  return list;
}

// Entry points.

cl_program CL_API_CALL create_program_with_il(cl_context context, const void* il, size_t length,
                                              cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    Context& c = get<Context>(context, CL_INVALID_CONTEXT);
    auto* program = new Program(Ref<Context>(&c), checked_il(il, length));
    return &program->handle;
  });
}

cl_int CL_API_CALL set_program_specialization_constant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                       const void* spec_value) {
  return guard([&] {
    get<Program>(program, CL_INVALID_PROGRAM).set_spec_constant(spec_id, spec_size, spec_value);
    return CL_SUCCESS;
  });
}

}  // namespace vkcl::opencl
