// Devices: which Vulkan physical device is which kind of CL device, what it
// offers as extensions and OpenCL C features, clGetDeviceIDs, and the
// reference counting and partitioning of root devices.
#include "entry_points.h"

namespace vkcl::opencl {
namespace {

cl_device_type type_of(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return CL_DEVICE_TYPE_CPU;  // lavapipe, SwiftShader
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return CL_DEVICE_TYPE_GPU;
    // "May not correspond directly to any other available types": neither a
    // CPU nor a GPU as far as anyone can tell, which OpenCL calls an accelerator.
    default: return CL_DEVICE_TYPE_ACCELERATOR;
  }
}

constexpr cl_version v1_0 = CL_MAKE_VERSION(1, 0, 0);
constexpr cl_version v3_0 = CL_MAKE_VERSION(3, 0, 0);

}  // namespace

Device::Device(const DeviceInfo& info, cl_platform_id platform_id)
    : handle{&kDispatch, this}, vulkan(info), platform(platform_id) {
  type = type_of(info.type);
  available = info.unusable.empty();
  const ModuleFeatures& f = info.features;

  // Extensions: only what the device can do and vkcl's compiler and runtime
  // already do, each gated on the ModuleFeatures a kernel using it needs
  // (host/device_features.cpp finds them; the runtime refuses a module that
  // needs one the device lacks).
  auto offer = [&](bool condition, const char* name) {
    if (condition) extensions.push_back(name_version(name, v1_0));
  };
  // 8- and 16-bit stores through buffer addresses need the 8/16-bit storage features.
  offer(f.storage_buffer_8bit && f.storage_buffer_16bit, "cl_khr_byte_addressable_store");
  // 32-bit atomics on storage buffers and workgroup memory: core Vulkan.
  offer(true, "cl_khr_global_int32_base_atomics");
  offer(true, "cl_khr_global_int32_extended_atomics");
  offer(true, "cl_khr_local_int32_base_atomics");
  offer(true, "cl_khr_local_int32_extended_atomics");
  const bool int64_atomics = f.shader_int64 && f.shader_buffer_int64_atomics && f.shader_shared_int64_atomics;
  offer(int64_atomics, "cl_khr_int64_base_atomics");
  offer(int64_atomics, "cl_khr_int64_extended_atomics");
  // Double subnormals: kept where the device says it can keep them
  // (shaderDenormPreserveFloat64; Program then asks for it, as
  // host/preserve_denormals.h says), and on llvmpipe (lavapipe), which does
  // not say so but whose generated CPU code never sets the x86
  // flush-to-zero modes in compute, so subnormals survive (Mesa 22.3.6;
  // tests/opencl's FloatingPointConfigHolds checks it on every run), and on
  // NVIDIA's GPUs, whose FP64 units have no flush-to-zero mode (PTX's .ftz
  // exists for .f32 only) although the driver does not offer
  // shaderDenormPreserveFloat64. OpenCL requires CL_FP_DENORM of any device
  // with doubles, so without it there is no cl_khr_fp64.
  constexpr uint32_t kNvidia = 0x10de;
  double_subnormals = f.denorm_preserve_float64 || info.driver_name == "llvmpipe" || info.vendor_id == kNvidia;
  fp64 = f.shader_float64 && double_subnormals;
  offer(fp64, "cl_khr_fp64");
  // Half arithmetic (cl_khr_fp16): a module computing in half declares
  // Float16 (shaderFloat16), and keeps its halves in buffers as 16-bit
  // values (storageBuffer16BitAccess) next to ushort bits (shaderInt16:
  // builtins/ takes halves apart on their bits). Kernel arguments travel as
  // 32-bit words (spirv/lower_kernel_arguments), so push constants need no
  // 16-bit access. builtins/math/half.cl and builtins/common_geometric_half.cl
  // define the half math, common and geometric functions (computed in float
  // and rounded once), and tools/clc/widen_half_divisions keeps x / y within
  // OpenCL's 1 ulp. clc defines cl_khr_fp16 always, like cl_khr_fp64; the
  // runtime refuses a module declaring Float16 on a device without it.
  fp16 = f.shader_float16 && f.shader_int16 && f.storage_buffer_16bit;
  offer(fp16, "cl_khr_fp16");
  // builtins/subgroups.cl: all/any are Vote, broadcast is Ballot, reduce and
  // scan are Arithmetic. The API half of cl_khr_subgroups
  // (clGetKernelSubGroupInfoKHR) comes with kernels.
  subgroups = f.subgroup_basic && f.subgroup_vote && f.subgroup_ballot && f.subgroup_arithmetic;
  // The extension, unlike the OpenCL C 3.0 feature, requires independent
  // forward progress of the sub-groups of a work-group (one may spin until
  // another writes). Vulkan promises none; NVIDIA's GPUs (since Volta)
  // schedule each warp on its own. lavapipe runs a work-group's sub-groups
  // in turn on one thread, so a spinning one never lets the next run.
  subgroup_forward_progress = subgroups && info.vendor_id == kNvidia;
  offer(subgroup_forward_progress, "cl_khr_subgroups");
  offer(subgroups && f.subgroup_extended_types, "cl_khr_subgroup_extended_types");
  offer(f.subgroup_vote, "cl_khr_subgroup_non_uniform_vote");
  offer(f.subgroup_ballot, "cl_khr_subgroup_ballot");
  offer(f.subgroup_arithmetic, "cl_khr_subgroup_non_uniform_arithmetic");
  offer(f.subgroup_shuffle, "cl_khr_subgroup_shuffle");
  offer(f.subgroup_shuffle_relative, "cl_khr_subgroup_shuffle_relative");
  offer(f.subgroup_clustered && f.subgroup_arithmetic, "cl_khr_subgroup_clustered_reduce");
  offer(true, "cl_khr_extended_versioning");
  // clCreateProgramWithIL: SPIR-V 1.0 to 1.4 (program_il.cpp). Of the
  // SPIR-V extensions, those SPIRV-LLVM-Translator 15's reader takes and the
  // CTS's spirv_new tests of pass (docs/opencl.md): NoSignedWrap and
  // NoUnsignedWrap decorations, and LinkOnceODR linkage. Not
  // cl_khr_expect_assume: the reader stops at OpExpectKHR and OpAssumeTrueKHR.
  offer(true, "cl_khr_il_program");
  offer(true, "cl_khr_spirv_no_integer_wrap_decoration");
  offer(true, "cl_khr_spirv_linkonce_odr");
  extension_names = names_of(extensions);

  // OpenCL C 3.0 features: those clc leaves defined for -cl-std=CL3.0
  // (tools/clc/frontend.cpp drops pipes, device enqueue and images) that
  // vkcl implements and this device can run. Not claimed although clc
  // defines them: __opencl_c_atomic_order_seq_cst (seq_cst becomes
  // AcquireRelease: Vulkan has no sequentially consistent order,
  // docs/synchronization.md), __opencl_c_atomic_scope_all_devices (it needs
  // SVM, which vkcl does not have), __opencl_c_program_scope_global_variables
  // (only program-scope __constant is lowered) and
  // __opencl_c_work_group_collective_functions (not in builtins/).
  auto feature = [&](bool condition, const char* name) {
    if (condition) c_features.push_back(name_version(name, v3_0));
  };
  feature(f.shader_int64, "__opencl_c_int64");
  feature(fp64, "__opencl_c_fp64");
  // OpenCL C 3.0 has no __opencl_c_fp16 feature: half arithmetic is the
  // cl_khr_fp16 extension alone.
  feature(true, "__opencl_c_generic_address_space");
  feature(true, "__opencl_c_atomic_order_acq_rel");
  feature(true, "__opencl_c_atomic_scope_device");
  feature(subgroups, "__opencl_c_subgroups");

  // A compile for this device defines the macros of exactly these
  // extensions and features: `-all` drops the rest that clang's spir64
  // target would claim (cl_khr_fp16, __opencl_c_atomic_order_seq_cst,
  // __opencl_c_program_scope_global_variables, ...), so that `#ifdef` in a
  // kernel agrees with CL_DEVICE_EXTENSIONS and CL_DEVICE_OPENCL_C_FEATURES
  // and a use of what is missing is clang's error at the use. Names clang
  // does not know (cl_khr_icd, cl_khr_il_program) define nothing.
  opencl_c_macros = "-cl-ext=-all";
  for (const cl_name_version& e : extensions) opencl_c_macros += ",+" + std::string(e.name);
  for (const cl_name_version& c : c_features) opencl_c_macros += ",+" + std::string(c.name);
}

CompileOptions Device::for_compiling(CompileOptions options) const {
  options.frontend_options.push_back(opencl_c_macros);
  options.frontend_options.push_back("-D__OPENCL_VERSION__=300");
  return options;
}

cl_int CL_API_CALL get_device_ids(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                  cl_device_id* devices, cl_uint* num_devices) {
  const Platform& p = Platform::get();
  if (platform && !p.owns(platform)) return CL_INVALID_PLATFORM;
  constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~known))) return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;

  cl_uint found = 0;
  for (size_t i = 0; i < p.devices.size(); ++i) {
    const Device& d = *p.devices[i];
    // The default device is the first, in the Vulkan loader's order (the one
    // VKCL_DEVICE=0 selects). vkcl::Device::create() prefers a discrete GPU
    // instead, which differs only where the loader lists another device first.
    const bool match = device_type == CL_DEVICE_TYPE_ALL || (device_type & d.type) ||
                       ((device_type & CL_DEVICE_TYPE_DEFAULT) && i == 0);
    if (!match) continue;
    if (devices && found < num_entries) devices[found] = const_cast<cl_device_id>(&d.handle);
    ++found;
  }
  if (num_devices) *num_devices = found;
  return found ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

// Root devices are neither counted nor freed: retaining and releasing them
// does nothing (OpenCL 1.2 and later), and their reference count stays 1.
cl_int CL_API_CALL retain_device(cl_device_id device) {
  return Platform::get().find(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}
cl_int CL_API_CALL release_device(cl_device_id device) {
  return Platform::get().find(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

// No device can be partitioned (CL_DEVICE_PARTITION_PROPERTIES is { 0 }):
// every partition asked for is one the device does not support.
cl_int CL_API_CALL create_sub_devices(cl_device_id in_device, const cl_device_partition_property*, cl_uint,
                                      cl_device_id*, cl_uint*) {
  return Platform::get().find(in_device) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}
cl_int CL_API_CALL create_sub_devices_ext(cl_device_id in_device, const cl_device_partition_property_ext*, cl_uint,
                                          cl_device_id*, cl_uint*) {
  return Platform::get().find(in_device) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}

}  // namespace vkcl::opencl
