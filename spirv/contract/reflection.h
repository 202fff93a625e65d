// Reflection: what the host needs to know to dispatch a module that clc wrote.
//
// clc writes it beside the module as `<output>.reflection`, a line-oriented
// text file (format below) so that it can be read by a person, diffed in a
// golden test and parsed without a JSON library. The host never looks inside
// the SPIR-V for this information.
//
// Argument passing (decided in spirv/bind_storage_buffers.cpp and
// spirv/lower_kernel_arguments.cpp):
//   - global and constant pointers that are only a base of accesses: a
//     storage buffer descriptor, set 0, binding `binding` (the host pushes
//     the buffer, from its offset to its end);
//   - other global and constant pointers: a 64-bit buffer device address in
//     the push-constant block (PhysicalStorageBuffer64);
//   - scalars: their bytes in the push-constant block;
//   - __local pointers: a Workgroup array whose length is a specialization
//     constant; the host sets it from the size given at dispatch.
// Work-group size: specialization constants 0, 1, 2 (WorkgroupSize builtin).
// ND-range values OpenCL has and Vulkan lacks (global offset, enqueued local
// size, ...) are push-constant fields, present only when the kernel reads them.
// A kernel whose arguments and ND-range fields would take more than the 128
// bytes of push constants every Vulkan device has gets an argument buffer
// (spirv/emit_push_constant_blocks.cpp): the arguments, at the same layout, in
// memory the host fills per dispatch, and its 64-bit address in the
// push-constant block; argument offsets are then offsets in that buffer.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vkcl {

enum class ArgKind { GlobalPointer, ConstantPointer, LocalPointer, Scalar };
std::string_view to_string(ArgKind kind);

// An argument's access qualifier (OpenCL C's read_only, write_only and
// read_write, for images and pipes); None for every other argument.
enum class ArgAccess { None, ReadOnly, WriteOnly, ReadWrite };
std::string_view to_string(ArgAccess access);

// An argument's type qualifiers, as OpenCL reports them
// (CL_KERNEL_ARG_TYPE_QUALIFIER, whose bits these are): const, restrict and
// volatile of what a pointer points to (const also for a __constant
// pointer), pipe for a pipe.
enum ArgTypeQualifier : uint32_t {
  kArgTypeConst = 1u << 0,
  kArgTypeRestrict = 1u << 1,
  kArgTypeVolatile = 1u << 2,
  kArgTypePipe = 1u << 3,
};

// ND-range values a kernel may read from push constants; each is a uvec4
// (x, y, z, unused) in the block, except WorkDim, which is one uint.
// GlobalIdBase is the global id of the dispatch's first work-item, group
// offset * enqueued local size + global offset, different in each split
// dispatch: get_global_id is then WorkgroupId * enqueued local size +
// LocalInvocationId + it, one term fewer than from the group offset and the
// global offset apart (CPU drivers recompute the sum in every per-lane loop).
enum class NDRangeField { GlobalOffset, GlobalSize, EnqueuedLocalSize, NumGroups, GroupOffset, WorkDim, GlobalIdBase };
std::string_view to_string(NDRangeField field);

struct KernelArg {
  uint32_t index = 0;
  std::string name;           // from the source; empty if unknown
  ArgKind kind = ArgKind::Scalar;
  uint32_t offset = 0;        // push-constant byte offset (GlobalPointer, ConstantPointer, Scalar),
                              // or offset in the argument buffer when the kernel has one
  uint32_t size = 0;          // bytes in the push-constant block or argument buffer (8 for pointers)
  uint32_t spec_id = 0;       // LocalPointer: the array-length specialization constant
  uint32_t element_size = 0;  // LocalPointer: bytes per array element (length = bytes / element_size)
  // GlobalPointer, ConstantPointer: the storage-buffer binding (descriptor
  // set 0) when the argument is bound as one; offset and size are then 0.
  std::optional<uint32_t> binding;
  // What the source says of the argument, for clGetKernelArgInfo: the type
  // as OpenCL spells it ("float4*", "uint", "struct pair", "mytype"), its
  // qualifiers (ArgTypeQualifier bits) and access qualifier. From clang's
  // kernel_arg_* metadata, before translation; an empty type name when the
  // compiler did not know it (a module from SPIR-V without the metadata).
  std::string type_name;
  uint32_t type_qualifiers = 0;
  ArgAccess access = ArgAccess::None;
};

// Where a kernel's arguments live when they are not in the push constants.
struct ArgumentBufferSlot {
  uint32_t offset = 0;  // push-constant byte offset of the buffer's 64-bit device address
  uint32_t size = 0;    // bytes of arguments in the buffer (nonzero)
};

struct NDRangeSlot {
  NDRangeField field;
  uint32_t offset = 0;
};

struct KernelReflection {
  std::string name;
  uint32_t push_constant_size = 0;
  std::vector<KernelArg> args;
  std::vector<NDRangeSlot> ndrange;
  std::optional<ArgumentBufferSlot> argument_buffer;  // only when the arguments did not fit
  std::array<uint32_t, 3> required_work_group_size{0, 0, 0};  // all 0 when not given
  uint32_t static_local_memory = 0;                           // bytes of kernel-scope __local arrays
  // intel_reqd_sub_group_size(N): the SubgroupSize the pipeline must be
  // created with (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo); 0 when not given.
  uint32_t required_sub_group_size = 0;
  // CL_KERNEL_ATTRIBUTES: the kernel's attributes as the source gave them,
  // space-separated, in OpenCL C's spelling (reqd_work_group_size(8,1,1)
  // work_group_size_hint(4,1,1) vec_type_hint(float4)); empty when none.
  std::string attributes;

  const KernelArg* find_arg(std::string_view arg_name) const;
  std::optional<uint32_t> ndrange_offset(NDRangeField field) const;
};

inline constexpr uint32_t kWorkGroupSizeSpecIdBase = 0;  // ids 0, 1, 2
inline constexpr uint32_t kFirstLocalArgSpecId = 3;
// A bool, true by default: whether the kernel adds the group offset and the
// global id base (NDRangeField::GroupOffset, GlobalIdBase) to WorkgroupId.
// The host sets it false where each dispatch's first group is its
// vkCmdDispatchBase base instead (spirv/lower_builtin_variables.cpp). Far
// above the ids of __local arguments, which count up from 3.
inline constexpr uint32_t kOffsetsInKernelSpecId = 0x7fff0000;
// The host places an argument buffer at a multiple of this (OpenCL's largest
// builtin type, long16); loads from it are Aligned to at most this.
inline constexpr uint32_t kArgumentBufferAlignment = 128;
// The most bytes of arguments a kernel may take (clc refuses more, the host
// refuses a reflection that says more). OpenCL's full profile promises at
// least 1024 (CL_DEVICE_MAX_PARAMETER_SIZE).
inline constexpr uint32_t kMaxArgumentBufferSize = 65536;

// Device features the module needs; the host checks each before building a pipeline.
struct ModuleFeatures {
  bool buffer_device_address = false;
  bool vulkan_memory_model = false;
  bool vulkan_memory_model_device_scope = false;
  bool shader_int64 = false;
  bool shader_int8 = false;
  bool shader_int16 = false;
  bool shader_float64 = false;
  bool shader_float16 = false;
  bool storage_buffer_8bit = false;
  bool storage_buffer_16bit = false;
  bool variable_pointers = false;
  bool subgroup_basic = false;  // GroupNonUniform in the compute stage
  // Sub-group operations in the compute stage (VkPhysicalDeviceSubgroupProperties::supportedOperations).
  bool subgroup_vote = false;
  bool subgroup_arithmetic = false;
  bool subgroup_ballot = false;
  bool subgroup_shuffle = false;
  bool subgroup_shuffle_relative = false;
  bool subgroup_clustered = false;
  bool subgroup_extended_types = false;  // 8/16/64-bit integers and half in them (shaderSubgroupExtendedTypes)
  bool shader_buffer_int64_atomics = false;  // 64-bit integer atomics on global memory (Int64Atomics)
  bool shader_shared_int64_atomics = false;  // 64-bit integer atomics on local memory (Int64Atomics)
  // Loads, stores and exchanges of float or double on local memory
  // (VK_EXT_shader_atomic_float's shaderSharedFloat32Atomics, shaderSharedFloat64Atomics).
  bool shader_shared_float32_atomics = false;
  bool shader_shared_float64_atomics = false;
  // The device can keep subnormals of that width (VkPhysicalDeviceFloatControlsProperties::
  // shaderDenormPreserveFloat16/32/64), so that a module may declare the DenormPreserve
  // execution mode. clc never asks for these: the runtime adds the mode where the device
  // has them (host/preserve_denormals.h); withholding them keeps modules as written.
  bool denorm_preserve_float16 = false;
  bool denorm_preserve_float32 = false;
  bool denorm_preserve_float64 = false;
  // The device honours signed zeros, infinities and NaNs of that width when a
  // module declares SignedZeroInfNanPreserve (VkPhysicalDeviceFloatControlsProperties::
  // shaderSignedZeroInfNanPreserveFloat16/32/64), as OpenCL requires; the
  // runtime adds the mode like DenormPreserve (host/preserve_denormals.h).
  bool signed_zero_inf_nan_preserve_float16 = false;
  bool signed_zero_inf_nan_preserve_float32 = false;
  bool signed_zero_inf_nan_preserve_float64 = false;
  // VK_KHR_push_descriptor: the host pushes the storage buffers of kernels
  // with bound arguments (KernelArg::binding) with vkCmdPushDescriptorSetKHR.
  bool push_descriptor = false;
};

// The names, as the text format spells them, of the features `needed` has and `available` lacks.
std::vector<std::string_view> missing_features(const ModuleFeatures& needed, const ModuleFeatures& available);
// `features` less every feature set in `removed`.
ModuleFeatures without(ModuleFeatures features, const ModuleFeatures& removed);

struct ModuleReflection {
  ModuleFeatures features;
  // Built with -cl-denorms-are-zero: subnormal floats and doubles may be
  // flushed to zero, so the runtime leaves the device's default denormal
  // behaviour in place rather than asking it to preserve them.
  bool denorms_are_zero = false;
  std::vector<KernelReflection> kernels;

  const KernelReflection* find_kernel(std::string_view kernel_name) const;
};

// Text format, version 1. One record per line, fields separated by spaces;
// names never contain spaces (OpenCL C identifiers), type names and
// attributes may, so they end their line. Every line that came after the
// first version (denorms_are_zero, argument_buffer, reqd_sub_group_size,
// arg_type, attributes) is written only when it says something, so that
// every reflection written before it existed reads as it did.
//   vkcl-reflection 1
//   feature <name>                      one line per required feature
//   denorms_are_zero                    only when built with -cl-denorms-are-zero
//   kernel <name>
//   push_constant_size <bytes>
//   argument_buffer <offset> <size>     only when the arguments are in an argument buffer:
//                                       its address's push-constant offset, its size
//   reqd_work_group_size <x> <y> <z>
//   static_local_memory <bytes>
//   reqd_sub_group_size <n>             only when the kernel has intel_reqd_sub_group_size(n)
//   ndrange <field> <offset>
//   arg <index> <name|-> global_pointer|constant_pointer|scalar <offset> <size>
//                                       (offset in the argument buffer when there is one)
//   arg <index> <name|-> global_pointer|constant_pointer storage_buffer <binding>
//   arg <index> <name|-> local_pointer <spec_id> <element_size>
//   arg_type <index> none|read_only|write_only|read_write <qualifiers|-> <type name>
//                                       after the arg lines, one per argument whose type is
//                                       known; qualifiers comma-separated: const,restrict,volatile,pipe
//   attributes <attributes>             only when the kernel has some
//   end
std::string serialize(const ModuleReflection& reflection);
// Throws std::runtime_error naming the line and what is wrong with it.
ModuleReflection parse_reflection(std::string_view text);

}  // namespace vkcl
