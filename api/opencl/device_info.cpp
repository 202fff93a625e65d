// clGetDeviceInfo: every query of OpenCL 3.0 (cl.h's CL_DEVICE_* list, and
// cl_ext.h's CL_DEVICE_HALF_FP_CONFIG), answered from what Vulkan says of
// the physical device (vkcl::DeviceInfo) and what vkcl itself can do. Each
// query is a line or a few, with the Vulkan limit or the reason beside it.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "entry_points.h"
#include "il.h"
#include "info.h"
#include "reflection.h"  // kMaxArgumentBufferSize

namespace vkcl::opencl {
namespace {

// CL_DEVICE_VENDOR from the PCI vendor ID (or Khronos vendor ID) Vulkan gives.
std::string vendor_name(uint32_t id) {
  switch (id) {
    case 0x1002: return "AMD";
    case 0x1010: return "ImgTec";
    case 0x106B: return "Apple";
    case 0x10DE: return "NVIDIA";
    case 0x13B5: return "ARM";
    case 0x14E4: return "Broadcom";
    case 0x5143: return "Qualcomm";
    case 0x8086: return "Intel";
    case VK_VENDOR_ID_MESA: return "Mesa";  // lavapipe
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04x", id);
  return std::string("Vulkan vendor ") + hex;
}

std::string vulkan_version(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

// Global memory: the device-local heaps (lavapipe's one heap is system
// memory flagged device-local), else every heap where none is.
cl_ulong global_memory(const DeviceInfo& v) {
  cl_ulong local = 0, all = 0;
  for (const MemoryHeapInfo& heap : v.heaps) {
    all += heap.size;
    if (heap.device_local()) local += heap.size;
  }
  return local ? local : all;
}

// The largest Buffer: maxMemoryAllocationSize (vkcl::Buffer's limit). A
// kernel takes any of it: a buffer a storage-buffer binding cannot take
// (maxStorageBufferRange) is passed by address instead (docs/design.md).
cl_ulong max_allocation(const DeviceInfo& v) { return std::min<cl_ulong>(v.max_allocation_size, global_memory(v)); }

// Floating-point capabilities of one width. Round to nearest even is
// Vulkan's default; denormals and infinities/NaNs only where the device can
// preserve them (float controls), which the runtime then asks for
// (host/preserve_denormals.h); fma is correctly rounded in builtins/ through
// 64-bit integer arithmetic (builtins/LOWERING.md).
cl_device_fp_config fp_config(bool denorm, bool inf_nan, bool int64) {
  return CL_FP_ROUND_TO_NEAREST | (denorm ? CL_FP_DENORM : 0) | (inf_nan ? CL_FP_INF_NAN : 0) |
         (int64 ? CL_FP_FMA : 0);
}

// Sub-groups in the largest work-group: the runtime never asks for a
// sub-group size except for intel_reqd_sub_group_size, so a work-group runs
// as sub-groups of the default size (VkPhysicalDeviceSubgroupProperties).
// Not maxComputeWorkgroupSubgroups: lavapipe says 32 there, yet runs 1024
// invocations as 128 sub-groups of 8.
size_t max_sub_groups(const Device& d) {
  const DeviceInfo& v = d.vulkan;
  if (!d.subgroups || v.subgroup_size == 0) return 0;
  return (v.max_work_group_invocations + v.subgroup_size - 1) / v.subgroup_size;
}

std::optional<InfoValue> device_info(const Device& d, cl_device_info param) {
  const DeviceInfo& v = d.vulkan;
  const ModuleFeatures& f = v.features;
  const bool fp64 = d.fp64, fp16 = d.fp16;
  switch (param) {
    // What the device is.
    case CL_DEVICE_TYPE: return of<cl_device_type>(d.type);
    case CL_DEVICE_VENDOR_ID: return of<cl_uint>(v.vendor_id);
    case CL_DEVICE_NAME: return text(v.name);
    case CL_DEVICE_VENDOR: return text(vendor_name(v.vendor_id));
    case CL_DRIVER_VERSION:
      return text(std::string(kVersion) + " (Vulkan driver " +
                  (v.driver_name.empty() ? v.driver_version_text() : v.driver_name + " " + v.driver_info) + ")");
    case CL_DEVICE_PROFILE: return text("FULL_PROFILE");
    case CL_DEVICE_VERSION: return text(platform_version() + " (Vulkan " + vulkan_version(v.api_version) + ")");
    case CL_DEVICE_NUMERIC_VERSION: return of<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_PLATFORM: return of<cl_platform_id>(d.platform);
    case CL_DEVICE_AVAILABLE: return of<cl_bool>(d.available);
    // No programs yet: nothing compiles or links through the API (issue 17).
    case CL_DEVICE_COMPILER_AVAILABLE: return of<cl_bool>(CL_TRUE);
    case CL_DEVICE_LINKER_AVAILABLE: return of<cl_bool>(CL_TRUE);  // clCompileProgram, clLinkProgram
    // A string is required; vkcl has not run the conformance suite.
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return text("v0000-01-01-00");
    case CL_DEVICE_EXTENSIONS: return text(d.extension_names);
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return array_of(d.extensions);

    // Compute: Vulkan's compute limits.
    // Vulkan says how many multiprocessors only through vendor extensions
    // (VK_NV_shader_sm_builtins, VK_AMD_shader_core_properties); elsewhere
    // (lavapipe) nothing tells, and 1 is the one number that is never false.
    case CL_DEVICE_MAX_COMPUTE_UNITS: return of<cl_uint>(v.compute_units ? v.compute_units : 1);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return of<cl_uint>(3);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return of<size_t>(v.max_work_group_invocations);  // maxComputeWorkGroupInvocations
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:  // maxComputeWorkGroupSize
      return array_of<size_t>({v.max_work_group_size[0], v.max_work_group_size[1], v.max_work_group_size[2]});
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return of<cl_bool>(CL_TRUE);  // the runtime splits ND-ranges
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return of<size_t>(std::max<uint32_t>(v.subgroup_size, 1));
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: return of<cl_uint>(static_cast<cl_uint>(max_sub_groups(d)));
    // Vulkan promises no forward progress between sub-groups.
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return of<cl_bool>(d.subgroup_forward_progress);
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: return of<cl_bool>(CL_FALSE);  // not in builtins/
    // Vulkan does not say.
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return of<cl_uint>(0);
    case CL_DEVICE_EXECUTION_CAPABILITIES: return of<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
    case CL_DEVICE_BUILT_IN_KERNELS: return text("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return array_of<cl_name_version>({});

    // Types. An invocation computes one lane of each value, whatever its
    // width: a vector is no faster per element than a scalar.
    case CL_DEVICE_ADDRESS_BITS: return of<cl_uint>(64);  // PhysicalStorageBuffer64
    case CL_DEVICE_ENDIAN_LITTLE: return of<cl_bool>(CL_TRUE);  // Vulkan's buffers are little-endian
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return of<cl_uint>(1);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return of<cl_uint>(fp64 ? 1 : 0);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return of<cl_uint>(fp16 ? 1 : 0);
    case CL_DEVICE_SINGLE_FP_CONFIG:
      return of<cl_device_fp_config>(
          fp_config(f.denorm_preserve_float32, f.signed_zero_inf_nan_preserve_float32, f.shader_int64));
    case CL_DEVICE_DOUBLE_FP_CONFIG:
      // Round to zero and to infinity as well: OpenCL C has no way to set a
      // rounding mode for double arithmetic (the rounding-mode pragma went
      // with 1.1), so they are the conversions' _rtz/_rtp/_rtn, which
      // builtins/ rounds exactly for every type. OpenCL 1.x requires them of
      // a device with doubles, and the CTS (math_brute_force) of every one.
      return of<cl_device_fp_config>(
          fp64 ? fp_config(d.double_subnormals, f.signed_zero_inf_nan_preserve_float64, f.shader_int64) |
                     CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF
               : 0);
    case CL_DEVICE_HALF_FP_CONFIG:
      // Subnormals only where the device keeps them (Program then asks for
      // DenormPreserve 16); infinities and NaNs where it honours them; fma
      // of half is correctly rounded in builtins/math/half.cl (float
      // arithmetic, rounded to odd, then to half; no Int64 needed).
      return of<cl_device_fp_config>(
          fp16 ? fp_config(f.denorm_preserve_float16, f.signed_zero_inf_nan_preserve_float16, false) | CL_FP_FMA : 0);

    // Memory.
    case CL_DEVICE_GLOBAL_MEM_SIZE: return of<cl_ulong>(global_memory(v));
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return of<cl_ulong>(max_allocation(v));
    // Vulkan reports no caches: none is the only answer that claims nothing.
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return of<cl_device_mem_cache_type>(CL_NONE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return of<cl_uint>(0);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return of<cl_ulong>(0);
    // __constant arguments are buffers like __global ones.
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return of<cl_ulong>(max_allocation(v));
    // Each is an 8-byte address in the kernel's argument data, which could
    // hold 8192; 64 is far above the 8 OpenCL requires, and a kernel with
    // that many (the CTS's min_max_constant_args writes one) still
    // compiles in seconds.
    case CL_DEVICE_MAX_CONSTANT_ARGS: return of<cl_uint>(64);
    case CL_DEVICE_LOCAL_MEM_TYPE: return of<cl_device_local_mem_type>(CL_LOCAL);  // workgroup memory
    case CL_DEVICE_LOCAL_MEM_SIZE: return of<cl_ulong>(v.max_shared_memory);  // maxComputeSharedMemorySize
    // The compiler's limit on a kernel's argument data (spirv/contract/reflection.h).
    case CL_DEVICE_MAX_PARAMETER_SIZE: return of<size_t>(kMaxArgumentBufferSize);
    // In bits: a sub-buffer's offset must be a multiple of Buffer::view_alignment,
    // the largest OpenCL C type (128 bytes) or minStorageBufferOffsetAlignment.
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
      return of<cl_uint>(8 * std::max<cl_uint>(128, v.min_storage_buffer_offset_alignment));
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return of<cl_uint>(128);  // long16
    // Memory::Auto's choice: CPU devices and integrated GPUs use the host's memory.
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
      return of<cl_bool>(v.type == VK_PHYSICAL_DEVICE_TYPE_CPU || v.type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return of<cl_bool>(CL_FALSE);  // Vulkan does not say
    // Only program-scope __constant is lowered; no program-scope __global.
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: return of<size_t>(0);
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return of<size_t>(0);
    case CL_DEVICE_SVM_CAPABILITIES: return of<cl_device_svm_capabilities>(0);
    // 0: natural alignment.
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return of<cl_uint>(0);
    // Orders and scopes as docs/synchronization.md maps them. Not seq_cst
    // (it becomes AcquireRelease), not all-devices (no SVM), and not
    // work-item fences (only for images).
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
      return of<cl_device_atomic_capabilities>(CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                               CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE);

    // Queues (queue.h): in-order and out-of-order, with GPU timestamps
    // where the compute queue family has them.
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return of<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                             (v.timestamp_valid_bits ? CL_QUEUE_PROFILING_ENABLE : 0));
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:  // timestampPeriod, in nanoseconds
      return of<size_t>(std::max<size_t>(1, static_cast<size_t>(std::lround(v.timestamp_period))));
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return of<cl_command_queue_properties>(0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: return of<cl_uint>(0);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return of<cl_device_device_enqueue_capabilities>(0);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return of<cl_bool>(CL_TRUE);  // no GL/D3D sharing anyway
    // No printf yet (a compile error, docs/design.md).
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return of<size_t>(0);

    // Images, samplers, pipes: none.
    case CL_DEVICE_IMAGE_SUPPORT: return of<cl_bool>(CL_FALSE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS:
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return of<cl_uint>(0);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return of<size_t>(0);
    case CL_DEVICE_PIPE_SUPPORT: return of<cl_bool>(CL_FALSE);
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: return of<cl_uint>(0);

    // The language: what clc compiles (tools/clc/frontend.cpp).
    // The highest OpenCL C version fully backward compatible: 2.0 is not
    // (no pipes, no device enqueue).
    case CL_DEVICE_OPENCL_C_VERSION: return text("OpenCL C 1.2 vkcl");
    // clc takes -cl-std=CL1.2, CL2.0 and CL3.0: 2.0 is left out as above,
    // and 1.0 and 1.1 until clBuildProgram maps their -cl-std onto 1.2.
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
      // 1.0 and 1.1 too: a device with OpenCL C 1.2 must take them
      // (-cl-std=CL1.0 and CL1.1 compile as 1.2, build_options.cpp).
      return array_of<cl_name_version>({name_version("OpenCL C", CL_MAKE_VERSION(1, 0, 0)),
                                        name_version("OpenCL C", CL_MAKE_VERSION(1, 1, 0)),
                                        name_version("OpenCL C", CL_MAKE_VERSION(1, 2, 0)),
                                        name_version("OpenCL C", CL_MAKE_VERSION(3, 0, 0))});
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:  // cl_khr_extended_versioning: CL_DEVICE_OPENCL_C_VERSION's
      return of<cl_version>(CL_MAKE_VERSION(1, 2, 0));
    case CL_DEVICE_OPENCL_C_FEATURES: return array_of(d.c_features);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return of<cl_bool>(CL_TRUE);
    // SPIR-V, the versions SPIRV-LLVM-Translator's reader takes (il.h).
    case CL_DEVICE_IL_VERSION: return text(il_version_names());
    case CL_DEVICE_ILS_WITH_VERSION: {
      std::vector<cl_name_version> versions;
      for (uint32_t minor = 0; minor <= kMaxILMinorVersion; ++minor)
        versions.push_back(name_version("SPIR-V", CL_MAKE_VERSION(1, minor, 0)));
      return array_of(versions);
    }

    // Partitioning: none; every device is a root device.
    case CL_DEVICE_PARENT_DEVICE: return of<cl_device_id>(nullptr);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return of<cl_uint>(0);
    case CL_DEVICE_PARTITION_PROPERTIES: return array_of<cl_device_partition_property>({0});
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return of<cl_device_affinity_domain>(0);
    case CL_DEVICE_PARTITION_TYPE: return array_of<cl_device_partition_property>({});  // a root device's: empty
    case CL_DEVICE_REFERENCE_COUNT: return of<cl_uint>(1);  // root devices are not counted
  }
  return std::nullopt;
}

}  // namespace

cl_int CL_API_CALL get_device_info(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret) {
  const Device* d = Platform::get().find(device);
  if (!d) return CL_INVALID_DEVICE;
  try {
    return copy_out(device_info(*d, param_name), param_value_size, param_value, param_value_size_ret);
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  }
}

}  // namespace vkcl::opencl
