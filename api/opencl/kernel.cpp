// Kernels: creation, arguments, clCloneKernel, and the kernel, argument and
// work-group info queries.
#include "kernel.h"

#include <algorithm>
#include <cstring>

#include "entry_points.h"
#include "errors.h"
#include "info.h"

namespace vkcl::opencl {
namespace {

const KernelReflection& find_kernel(const Program& program, std::string_view name) {
  const ProgramBuild* build = program.any_executable();
  require(build, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable for any device");
  const KernelReflection* k = build->module->reflection.find_kernel(name);
  require(k, CL_INVALID_KERNEL_NAME, "no kernel of that name in the program");
  return *k;
}

}  // namespace

Kernel::Kernel(Ref<Program> program, std::string_view name)
    : program_(std::move(program)), reflection_(find_kernel(*program_, name)) {
  args_.resize(reflection_.args.size());
  const Program::Origin origin = program_->origin();
  from_source_ = origin == Program::Origin::Source || origin == Program::Origin::Link;
  arg_info_available_ = from_source_ && program_->any_executable()->parsed.kernel_arg_info;
  ++program_->kernel_count;
}

Kernel::Kernel(const Kernel& other)
    : Object(), program_(other.program_), reflection_(other.reflection_), from_source_(other.from_source_),
      arg_info_available_(other.arg_info_available_) {
  args_ = other.args();
  ++program_->kernel_count;
}

Kernel::~Kernel() { --program_->kernel_count; }

void Kernel::set_arg(cl_uint index, size_t size, const void* value) {
  require(index < reflection_.args.size(), CL_INVALID_ARG_INDEX, "no argument of that index");
  const KernelArg& a = reflection_.args[index];
  KernelArgValue v;
  v.set = true;
  switch (a.kind) {
    case ArgKind::GlobalPointer:
    case ArgKind::ConstantPointer: {
      require(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE, "a buffer argument's size is sizeof(cl_mem)");
      cl_mem mem = value ? *static_cast<const cl_mem*>(value) : nullptr;
      if (mem) {
        Memory* m = lookup<Memory>(mem);
        require(m && &m->context() == &context(), CL_INVALID_MEM_OBJECT, "not a buffer of the kernel's context");
        v.memory = m;
      }
      break;
    }
    case ArgKind::LocalPointer:
      require(value == nullptr, CL_INVALID_ARG_VALUE, "a __local argument's value must be NULL");
      require(size != 0, CL_INVALID_ARG_SIZE, "a __local argument's size is 0");
      v.local_bytes = size;
      break;
    case ArgKind::Scalar:
      require(value != nullptr, CL_INVALID_ARG_VALUE, "the value is NULL");
      require(size == a.size, CL_INVALID_ARG_SIZE, "the size is not the argument type's");
      v.bytes.assign(static_cast<const std::byte*>(value), static_cast<const std::byte*>(value) + size);
      break;
  }
  std::lock_guard lock(mutex_);
  args_[index] = std::move(v);
}

std::vector<KernelArgValue> Kernel::args() const {
  std::lock_guard lock(mutex_);
  return args_;
}

BuildOptions Kernel::build_options(const ContextDevice& device) const { return program_->options_of(device); }

std::optional<vkcl::Kernel> Kernel::runtime_kernel(const ContextDevice& device) const {
  const std::shared_ptr<vkcl::Program> runtime = program_->runtime_of(device);
  if (!runtime) return std::nullopt;
  vkcl::Kernel k = runtime->kernel(reflection_.name);
  auto values = args();
  auto& d = const_cast<ContextDevice&>(device);
  for (uint32_t i = 0; i < values.size(); ++i) {
    const KernelArgValue& v = values[i];
    const KernelArg& a = reflection_.args[i];
    if (!v.set) continue;  // the enqueue refuses it
    switch (a.kind) {
      case ArgKind::GlobalPointer:
      case ArgKind::ConstantPointer:
        if (v.memory)
          k.set_arg(i, v.memory->allocation(d), v.memory->offset_in_allocation());
        else
          k.set_null_arg(i);
        break;
      case ArgKind::LocalPointer: {
        // Whole elements: the array's length is a count of them.
        const size_t element = std::max<uint32_t>(1, a.element_size);
        k.set_local_arg(i, (v.local_bytes + element - 1) / element * element);
        break;
      }
      case ArgKind::Scalar: k.set_arg_bytes(i, v.bytes); break;
    }
  }
  return k;
}

// Entry points.

cl_kernel CL_API_CALL create_kernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    Program& p = get<Program>(program, CL_INVALID_PROGRAM);
    require(kernel_name, CL_INVALID_VALUE, "kernel_name is NULL");
    auto* kernel = new Kernel(Ref<Program>(&p), kernel_name);
    return &kernel->handle;
  });
}

cl_int CL_API_CALL create_kernels_in_program(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                             cl_uint* num_kernels_ret) {
  return guard([&] {
    Program& p = get<Program>(program, CL_INVALID_PROGRAM);
    const ProgramBuild* build = p.any_executable();
    require(build, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable for any device");
    const auto& list = build->module->reflection.kernels;
    require(!kernels || num_kernels >= list.size(), CL_INVALID_VALUE, "num_kernels is less than the kernels");
    if (kernels)
      for (size_t i = 0; i < list.size(); ++i) kernels[i] = &(new Kernel(Ref<Program>(&p), list[i].name))->handle;
    if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(list.size());
    return CL_SUCCESS;
  });
}

cl_kernel CL_API_CALL clone_kernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    const Kernel& k = get<Kernel>(source_kernel, CL_INVALID_KERNEL);
    return &(new Kernel(k))->handle;
  });
}

cl_int CL_API_CALL retain_kernel(cl_kernel kernel) { return retain_handle<Kernel>(kernel, CL_INVALID_KERNEL); }
cl_int CL_API_CALL release_kernel(cl_kernel kernel) { return release_handle<Kernel>(kernel, CL_INVALID_KERNEL); }

cl_int CL_API_CALL set_kernel_arg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
  return guard([&] {
    get<Kernel>(kernel, CL_INVALID_KERNEL).set_arg(arg_index, arg_size, arg_value);
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL get_kernel_info(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Kernel& k = get<Kernel>(kernel, CL_INVALID_KERNEL);
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_KERNEL_FUNCTION_NAME: value = text(k.reflection().name); break;
      case CL_KERNEL_NUM_ARGS: value = of<cl_uint>(static_cast<cl_uint>(k.reflection().args.size())); break;
      case CL_KERNEL_REFERENCE_COUNT: value = of<cl_uint>(k.api_reference_count()); break;
      case CL_KERNEL_CONTEXT: value = of<cl_context>(&k.context().handle); break;
      case CL_KERNEL_PROGRAM: value = of<cl_program>(&k.program().handle); break;
      // As the source wrote them; empty for a kernel from SPIR-V or a binary, as the specification says.
      case CL_KERNEL_ATTRIBUTES: value = text(k.from_source() ? k.reflection().attributes : ""); break;
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL get_kernel_arg_info(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                       size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Kernel& k = get<Kernel>(kernel, CL_INVALID_KERNEL);
    require(arg_index < k.reflection().args.size(), CL_INVALID_ARG_INDEX, "no argument of that index");
    require(k.arg_info_available(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
            "the program was not built from source with -cl-kernel-arg-info");
    const KernelArg& a = k.reflection().args[arg_index];
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
        cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
        if (a.kind == ArgKind::GlobalPointer) q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
        if (a.kind == ArgKind::ConstantPointer) q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
        if (a.kind == ArgKind::LocalPointer) q = CL_KERNEL_ARG_ADDRESS_LOCAL;
        value = of(q);
        break;
      }
      case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
        cl_kernel_arg_access_qualifier q = CL_KERNEL_ARG_ACCESS_NONE;
        if (a.access == ArgAccess::ReadOnly) q = CL_KERNEL_ARG_ACCESS_READ_ONLY;
        if (a.access == ArgAccess::WriteOnly) q = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
        if (a.access == ArgAccess::ReadWrite) q = CL_KERNEL_ARG_ACCESS_READ_WRITE;
        value = of(q);
        break;
      }
      case CL_KERNEL_ARG_NAME:
        require(!a.name.empty(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "the argument's name is not known");
        value = text(a.name);
        break;
      case CL_KERNEL_ARG_TYPE_NAME:
        require(!a.type_name.empty(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "the argument's type is not known");
        value = text(a.type_name);
        break;
      case CL_KERNEL_ARG_TYPE_QUALIFIER: {
        cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
        if (a.type_qualifiers & kArgTypeConst) q |= CL_KERNEL_ARG_TYPE_CONST;
        if (a.type_qualifiers & kArgTypeRestrict) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
        if (a.type_qualifiers & kArgTypeVolatile) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
        if (a.type_qualifiers & kArgTypePipe) q |= CL_KERNEL_ARG_TYPE_PIPE;
        value = of(q);
        break;
      }
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

namespace {

// The device a per-device query is about: `device`, or the program's only
// device when it is NULL.
const ContextDevice& device_for(const Kernel& k, cl_device_id device) {
  if (!device) {
    require(k.program().devices().size() == 1, CL_INVALID_DEVICE, "device is NULL and the program has several");
    return *k.program().devices().front();
  }
  const ContextDevice* d = k.context().find(device);
  require(d && std::find(k.program().devices().begin(), k.program().devices().end(), d) != k.program().devices().end(),
          CL_INVALID_DEVICE, "not a device of the kernel's program");
  return *d;
}

}  // namespace

size_t max_work_group_size(const Kernel& k, const ContextDevice& d) {
  const auto& required = k.reflection().required_work_group_size;
  if (required[0]) return size_t(required[0]) * required[1] * required[2];
  return d.device->vulkan.max_work_group_invocations;
}

cl_int CL_API_CALL get_kernel_work_group_info(cl_kernel kernel, cl_device_id device,
                                              cl_kernel_work_group_info param_name, size_t param_value_size,
                                              void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Kernel& k = get<Kernel>(kernel, CL_INVALID_KERNEL);
    const ContextDevice& d = device_for(k, device);
    const KernelReflection& r = k.reflection();
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_KERNEL_WORK_GROUP_SIZE: value = of<size_t>(max_work_group_size(k, d)); break;
      case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        std::array<size_t, 3> size{r.required_work_group_size[0], r.required_work_group_size[1],
                                   r.required_work_group_size[2]};
        value = of(size);
        break;
      }
      case CL_KERNEL_LOCAL_MEM_SIZE: {
        cl_ulong bytes = r.static_local_memory;
        for (const KernelArgValue& v : k.args()) bytes += v.local_bytes;
        value = of(bytes);
        break;
      }
      // The sub-group size: work-groups of whole sub-groups use every lane.
      case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        value = of<size_t>(r.required_sub_group_size ? r.required_sub_group_size
                                                     : std::max<uint32_t>(1, d.device->vulkan.subgroup_size));
        break;
      // Vulkan does not say how much private memory a pipeline uses.
      case CL_KERNEL_PRIVATE_MEM_SIZE: value = of<cl_ulong>(0); break;
      // Only for custom devices and built-in kernels.
      case CL_KERNEL_GLOBAL_WORK_SIZE: throw ClError{CL_INVALID_VALUE, "not a custom device or built-in kernel"};
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL get_kernel_sub_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                                             size_t input_value_size, const void* input_value,
                                             size_t param_value_size, void* param_value,
                                             size_t* param_value_size_ret) {
  return guard([&] {
    const Kernel& k = get<Kernel>(kernel, CL_INVALID_KERNEL);
    const ContextDevice& d = device_for(k, device);
    const KernelReflection& r = k.reflection();
    const size_t sub_group = r.required_sub_group_size ? r.required_sub_group_size
                                                       : std::max<uint32_t>(1, d.device->vulkan.subgroup_size);
    const size_t max_group = max_work_group_size(k, d);
    // The work-group a query about an ND-range's local size names.
    auto local_items = [&] {
      require(input_value && input_value_size && input_value_size % sizeof(size_t) == 0 &&
                  input_value_size <= 3 * sizeof(size_t),
              CL_INVALID_VALUE, "input_value is not a local size of 1 to 3 size_t");
      size_t items = 1;
      for (size_t i = 0; i < input_value_size / sizeof(size_t); ++i) items *= static_cast<const size_t*>(input_value)[i];
      return items;
    };
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: value = of<size_t>(std::min(sub_group, local_items())); break;
      case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        const size_t items = local_items();
        value = of<size_t>((items + sub_group - 1) / sub_group);
        break;
      }
      case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        require(input_value && input_value_size == sizeof(size_t), CL_INVALID_VALUE, "input_value is not one size_t");
        const size_t count = *static_cast<const size_t*>(input_value);
        // Sub-groups are made of consecutive work-items in x: count of them
        // fill a work-group of count * sub-group size in x; 0s when none fits.
        const size_t dims = param_value_size / sizeof(size_t);
        std::vector<size_t> local(dims ? dims : 1, 0);
        const size_t items = count * sub_group;
        if (count && items <= max_group && items <= d.device->vulkan.max_work_group_size[0]) {
          local[0] = items;
          for (size_t i = 1; i < local.size(); ++i) local[i] = 1;
        }
        value = array_of(local);
        break;
      }
      case CL_KERNEL_MAX_NUM_SUB_GROUPS: value = of<size_t>((max_group + sub_group - 1) / sub_group); break;
      case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: value = of<size_t>(0); break;
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

}  // namespace vkcl::opencl
