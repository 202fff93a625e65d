// Separate compilation: clCompileProgram makes a compiled object per device
// (LLVM bitcode from the compile worker, clang's output before anything
// vkcl does to it), clLinkProgram links objects and libraries into a new
// program, an executable or (-create-library) a library, in a compile
// worker too (vkcl/compile_worker.h).
#include <algorithm>

#include "entry_points.h"
#include "errors.h"
#include "program.h"
#include "vkcl/compile_worker.h"
#include "vkcl/source_program.h"

namespace vkcl::opencl {
namespace {

bool has_object(const ProgramBuild& b) {
  return !b.object.empty() &&
         (b.binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || b.binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
}

// How a link compiles after clang, from how its objects were compiled:
// optimized unless one of them asked not to be (-cl-opt-disable), allowed
// to flush subnormals when the link options or every object allow it,
// kernel argument information where an object kept it, uniform work-groups
// where an object needs them (OpenCL C 1.2, -cl-uniform-work-group-size).
BuildOptions linked_options(const std::vector<ProgramBuild>& objects, const LinkOptions& link) {
  BuildOptions b;
  b.compile.denorms_are_zero = link.denorms_are_zero;
  bool all_flush = !objects.empty();
  for (const ProgramBuild& o : objects) {
    b.compile.optimize &= o.parsed.compile.optimize;
    all_flush &= o.parsed.compile.denorms_are_zero;
    b.kernel_arg_info |= o.parsed.kernel_arg_info;
    b.uniform_work_groups |= o.parsed.uniform_work_groups;
  }
  b.compile.denorms_are_zero |= all_flush;
  return b;
}

}  // namespace

void Program::compile_one(ContextDevice& device, const std::vector<InputHeader>& headers, ProgramBuild& build) {
  try {
    const CompileOptions options = device.device->for_compiling(build.parsed.compile);
    WorkerObjectResult result = origin_ == Origin::Source
                                    ? device.compile_workers->compile_object(source_, kSourceName, options, headers)
                                    : device.compile_workers->compile_il_object(il_, kILName, spec_constants());
    build.object = std::move(result.bitcode);
    build.log = std::move(result.warnings);
    build.status = CL_BUILD_SUCCESS;
    build.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  } catch (const CompileError& e) {
    build.log = e.what();
    build.status = CL_BUILD_ERROR;
  }
}

cl_int Program::compile(std::vector<ContextDevice*> devices, std::string_view options,
                        std::vector<InputHeader> headers) {
  const BuildOptions parsed = parse_build_options(options, CL_INVALID_COMPILER_OPTIONS);
  require(origin_ == Origin::Source || origin_ == Origin::IL, CL_INVALID_OPERATION,
          "the program has neither source nor IL to compile");
  Building building(*this);
  if (devices.empty()) devices = devices_;
  for (ContextDevice* d : devices) slot(*d);
  // The object is clang's output, the same for devices with the same
  // extensions and features (Device::opencl_c_macros): compiled once for each set.
  std::vector<std::pair<const std::string*, ProgramBuild>> compiled;
  const bool ok = for_each_device(devices, [&](ContextDevice& d, ProgramBuild& build) {
    for (const auto& [macros, earlier] : compiled)
      if (*macros == d.device->opencl_c_macros) {
        build = earlier;
        return;
      }
    build.options = std::string(options);
    build.parsed = parsed;
    compile_one(d, headers, build);
    compiled.emplace_back(&d.device->opencl_c_macros, build);
  });
  return ok ? CL_SUCCESS : CL_COMPILE_PROGRAM_FAILURE;
}

cl_int Program::link(const std::vector<Program*>& inputs, std::string_view options) {
  const LinkOptions link = parse_link_options(options);
  Building building(*this);
  const bool ok = for_each_device(devices_, [&](ContextDevice& d, ProgramBuild& build) {
    std::vector<ProgramBuild> objects;
    for (Program* input : inputs)
      if (input->has_device(d))
        if (ProgramBuild b = input->build_of(d); has_object(b)) objects.push_back(std::move(b));
    if (objects.empty()) {  // no input has one for this device: no link (link_program's checks)
      build.status = CL_BUILD_NONE;
      return;
    }
    std::vector<std::string> bitcode;
    for (ProgramBuild& o : objects) bitcode.push_back(std::move(o.object));
    build.options = std::string(options);
    build.parsed = linked_options(objects, link);
    try {
      if (link.create_library) {
        WorkerObjectResult library = d.compile_workers->link_library(bitcode, kSourceName);
        build.object = std::move(library.bitcode);
        build.log = std::move(library.warnings);
        build.binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
      } else {
        ProgramInput input;
        input.kind = ProgramInput::Kind::Objects;
        input.objects = std::move(bitcode);
        const CompileOptions compile = compile_options_for(d.runtime, build.parsed.compile);
        VulkanModule module = compile_input(*d.compile_workers, d.runtime.features(), input, compile, &build.log);
        build.runtime = load_executable(d, module, compile, input);
        build.module = std::move(module);
        build.input = std::move(input);
        build.parsed.compile = compile;
        build.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      }
      build.status = CL_BUILD_SUCCESS;
    } catch (const CompileError& e) {
      build.log = e.what();
      build.status = CL_BUILD_ERROR;
    } catch (const vkcl::Error& e) {
      build.log = std::string("vkcl: ") + e.what();  // the module does not load on this device
      build.status = CL_BUILD_ERROR;
    }
  });
  return ok ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
}

// Entry points.

cl_int CL_API_CALL compile_program(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                   const char* options, cl_uint num_input_headers, const cl_program* input_headers,
                                   const char** header_include_names,
                                   void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
  return guard([&] {
    Program& p = get<Program>(program, CL_INVALID_PROGRAM);
    require((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE, "num_devices and device_list disagree");
    require(num_input_headers == 0 ? !input_headers && !header_include_names : input_headers && header_include_names,
            CL_INVALID_VALUE, "num_input_headers, input_headers and header_include_names disagree");
    require(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    std::vector<ContextDevice*> devices;
    for (cl_uint i = 0; i < num_devices; ++i) {
      ContextDevice* d = p.context().find(device_list[i]);
      require(d && p.has_device(*d), CL_INVALID_DEVICE, "not a device of the program");
      devices.push_back(d);
    }
    // Each header is a program from source, #include-able by its name.
    std::vector<InputHeader> headers;
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      const Program& header = get<Program>(input_headers[i], CL_INVALID_PROGRAM);
      require(header_include_names[i] && *header_include_names[i], CL_INVALID_VALUE, "a header has no name");
      require(header.origin() == Program::Origin::Source, CL_INVALID_VALUE,
              "an input header is not a program from source");
      headers.push_back({header_include_names[i], header.source()});
    }
    // Compiled before returning; the callback then says so.
    const cl_int result = p.compile(std::move(devices), options ? options : "", std::move(headers));
    if (pfn_notify) pfn_notify(program, user_data);
    return result;
  });
}

cl_program CL_API_CALL link_program(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                    const char* options, cl_uint num_input_programs,
                                    const cl_program* input_programs,
                                    void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                                    cl_int* errcode_ret) {
  // A link that fails still gives a program, whose build log says why.
  cl_program linked = nullptr;
  const cl_int code = guard([&] {
    Context& c = get<Context>(context, CL_INVALID_CONTEXT);
    require((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE, "num_devices and device_list disagree");
    require(num_input_programs && input_programs, CL_INVALID_VALUE, "no input programs");
    std::vector<Program*> inputs;
    for (cl_uint i = 0; i < num_input_programs; ++i) {
      Program& input = get<Program>(input_programs[i], CL_INVALID_PROGRAM);
      require(&input.context() == &c, CL_INVALID_PROGRAM, "an input program of another context");
      inputs.push_back(&input);
    }
    require(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    std::vector<ContextDevice*> devices;
    for (cl_uint i = 0; i < num_devices; ++i) {
      ContextDevice* d = c.find(device_list[i]);
      require(d, CL_INVALID_DEVICE, "not a device of the context");
      devices.push_back(d);
    }
    if (devices.empty())
      for (size_t i = 0; i < c.device_count(); ++i) devices.push_back(&c.device(i));
    parse_link_options(options ? options : "");
    // For each device, every input has a compiled object or library for it
    // (a link is made), or none has (no link: the device gets no
    // executable); a link of nothing at all is refused too.
    bool any = false;
    for (ContextDevice* d : devices) {
      size_t with = 0;
      for (Program* input : inputs) {
        if (!input->has_device(*d)) continue;
        const ProgramBuild b = input->build_of(*d);
        require(b.status != CL_BUILD_IN_PROGRESS, CL_INVALID_OPERATION, "an input program is being built");
        with += has_object(b);
      }
      require(with == 0 || with == inputs.size(), CL_INVALID_OPERATION,
              "some input programs have a compiled object or library for a device and some do not");
      any |= with != 0;
    }
    require(any, CL_INVALID_OPERATION, "no input program is a compiled object or library");
    auto* program = new Program(Ref<Context>(&c), std::move(devices));
    cl_int result = CL_SUCCESS;
    try {
      result = program->link(inputs, options ? options : "");
    } catch (...) {
      program->release_api();
      throw;
    }
    linked = &program->handle;
    // Linked before returning; the callback then says so.
    if (pfn_notify) pfn_notify(linked, user_data);
    return result;
  });
  if (errcode_ret) *errcode_ret = code;
  return linked;
}

}  // namespace vkcl::opencl
