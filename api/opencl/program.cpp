// Programs: creation from source and binaries, building, loading
// executables, binaries, and the program info queries (compile and link:
// program_link.cpp; SPIR-V: program_il.cpp).
#include "program.h"

#include <algorithm>
#include <cstring>

#include "entry_points.h"
#include "errors.h"
#include "info.h"
#include "vkcl/compile_worker.h"
#include "vkcl/source_program.h"

namespace vkcl::opencl {

VulkanModule compile_input(CompileWorkers& workers, const ModuleFeatures& features, const ProgramInput& input,
                           const CompileOptions& options, std::string* warnings) {
  // In a child process, a vkcl-compile-worker kept warm by the context
  // (vkcl/compile_worker.h): the compiler's process-wide state (its crash
  // handlers, its exit() and std::cerr interposition) stays out of the
  // application, builds on any number of threads run at once, and a crash
  // in clang, LLVM or the translator is a failed build whose log says so.
  const CompileOptions chosen = compile_options_for(features, options);
  WorkerCompileResult result;
  switch (input.kind) {
    case ProgramInput::Kind::Source: {
      BuildSettings settings;
      settings.compile_in = CompileIn::ChildProcess;
      settings.workers = &workers;
      settings.warnings = warnings;
      // Through VKCL_MODULE_CACHE, where it is set.
      return compile_module_for(features, input.source, kSourceName, chosen, settings);
    }
    case ProgramInput::Kind::IL:
      result = workers.compile_il(input.il, kILName, chosen, input.spec_constants);
      break;
    case ProgramInput::Kind::Objects:
      result = workers.link(input.objects, kSourceName, chosen);
      break;
  }
  if (warnings) *warnings += result.warnings;
  return std::move(result.module);
}

std::shared_ptr<vkcl::Program> load_executable(ContextDevice& device, const VulkanModule& module,
                                               const CompileOptions& options, const ProgramInput& input) {
  const ModuleFeatures features = device.runtime.features();
  auto recompile = [workers = device.compile_workers, features, input](const CompileOptions& o) {
    return compile_input(*workers, features, input, o);
  };
  std::lock_guard lock(device.lock);
  return std::make_shared<vkcl::Program>(load_program(device.runtime, module, options, recompile));
}

Program::Program(Ref<Context> context, std::string source)
    : context_(std::move(context)), origin_(Origin::Source), source_(std::move(source)) {
  for (size_t i = 0; i < context_->device_count(); ++i) devices_.push_back(&context_->device(i));
  builds_.resize(devices_.size());
}

Program::Program(Ref<Context> context, std::vector<uint32_t> il)
    : context_(std::move(context)), origin_(Origin::IL), il_(std::move(il)) {
  for (size_t i = 0; i < context_->device_count(); ++i) devices_.push_back(&context_->device(i));
  builds_.resize(devices_.size());
}

Program::Program(Ref<Context> context, std::vector<ContextDevice*> devices,
                 std::vector<std::vector<unsigned char>> binaries)
    : context_(std::move(context)), origin_(Origin::Binary), devices_(std::move(devices)),
      binaries_(std::move(binaries)) {
  builds_.resize(devices_.size());
  for (size_t i = 0; i < devices_.size(); ++i) {
    // The binary type is known before the build; a compiled object or a
    // library is ready for clLinkProgram as it is.
    std::optional<ProgramBinary> decoded = decode_binary(binaries_[i]);
    if (!decoded) continue;
    ProgramBuild& b = builds_[i];
    b.binary_type = decoded->type;
    if (decoded->type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) continue;
    b.options = decoded->options;
    try {
      b.parsed = parse_build_options(decoded->options);
    } catch (const ClError&) {
      // Options this build does not know: the defaults then.
    }
    b.object = std::move(decoded->object);
  }
}

Program::Program(Ref<Context> context, std::vector<ContextDevice*> devices)
    : context_(std::move(context)), origin_(Origin::Link), devices_(std::move(devices)) {
  builds_.resize(devices_.size());
}

size_t Program::slot(const ContextDevice& device) const {
  for (size_t i = 0; i < devices_.size(); ++i)
    if (devices_[i] == &device) return i;
  throw ClError{CL_INVALID_DEVICE, "not a device of the program"};
}

bool Program::has_device(const ContextDevice& device) const {
  return std::find(devices_.begin(), devices_.end(), &device) != devices_.end();
}

Program::Building::Building(Program& program) : program_(program) {
  std::lock_guard lock(program_.mutex_);
  require(!program_.building_, CL_INVALID_OPERATION, "a build of the program is in progress");
  require(program_.kernel_count.load() == 0, CL_INVALID_OPERATION, "kernels of the program exist");
  program_.building_ = true;
}

Program::Building::~Building() {
  std::lock_guard lock(program_.mutex_);
  program_.building_ = false;
}

void Program::build_one(ContextDevice& device, const BuildOptions& parsed, ProgramBuild& build) {
  ProgramInput input;
  CompileOptions options = parsed.compile;
  std::optional<VulkanModule> module;
  switch (origin_) {
    case Origin::Source:
      input.source = source_;
      break;
    case Origin::IL:
      input.kind = ProgramInput::Kind::IL;
      input.il = il_;
      input.spec_constants = spec_constants();
      break;
    case Origin::Binary: {
      std::optional<ProgramBinary> decoded = decode_binary(binaries_[slot(device)]);
      if (!decoded) throw ClError{CL_INVALID_BINARY, "not a vkcl program binary"};
      // The binary's own options decide what it was compiled with.
      build.options = decoded->options;
      build.parsed = parse_build_options(decoded->options);
      options = build.parsed.compile;
      if (decoded->type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        input = std::move(decoded->input);
        module = std::move(decoded->module);
      } else {
        // A compiled object or library alone, linked into an executable.
        input.kind = ProgramInput::Kind::Objects;
        input.objects = {std::move(decoded->object)};
      }
      break;
    }
    case Origin::Link:
      throw ClError{CL_INVALID_OPERATION, "a program clLinkProgram made cannot be built"};
  }
  const ModuleFeatures features = device.runtime.features();
  options = device.device->for_compiling(compile_options_for(device.runtime, std::move(options)));
  std::string warnings;
  try {
    if (!module) module = compile_input(*device.compile_workers, features, input, options, &warnings);
    build.runtime = load_executable(device, *module, options, input);
  } catch (const CompileError& e) {
    build.log = e.what();
    build.status = CL_BUILD_ERROR;
    return;
  } catch (const vkcl::Error& e) {
    // The module does not load on this device (a feature it lacks): a
    // binary is then not one for this device.
    build.log = std::string("vkcl: ") + e.what();
    build.status = CL_BUILD_ERROR;
    if (origin_ == Origin::Binary) throw ClError{CL_INVALID_BINARY, e.what()};
    return;
  }
  build.module = std::move(module);
  build.input = std::move(input);
  build.parsed.compile = options;
  build.log = std::move(warnings);  // CL_PROGRAM_BUILD_LOG of a build that succeeded
  build.status = CL_BUILD_SUCCESS;
  build.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

cl_int Program::build(std::vector<ContextDevice*> devices, std::string_view options) {
  require(origin_ != Origin::Link, CL_INVALID_OPERATION, "a program clLinkProgram made cannot be built");
  Building building(*this);
  if (devices.empty()) devices = devices_;
  for (ContextDevice* d : devices) slot(*d);
  const BuildOptions parsed = parse_build_options(options);
  const bool ok = for_each_device(devices, [&](ContextDevice& d, ProgramBuild& build) {
    build.options = std::string(options);
    build.parsed = parsed;
    build_one(d, parsed, build);
  });
  return ok ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
}

ProgramBuild Program::build_of(const ContextDevice& device) const {
  std::lock_guard lock(mutex_);
  return builds_[slot(device)];
}

std::shared_ptr<vkcl::Program> Program::runtime_of(const ContextDevice& device) const {
  std::lock_guard lock(mutex_);
  return builds_[slot(device)].runtime;
}

BuildOptions Program::options_of(const ContextDevice& device) const {
  std::lock_guard lock(mutex_);
  return builds_[slot(device)].parsed;
}

const ProgramBuild* Program::any_executable() const {
  std::lock_guard lock(mutex_);
  for (const ProgramBuild& b : builds_)
    if (b.status == CL_BUILD_SUCCESS && b.runtime) return &b;
  return nullptr;
}

std::vector<unsigned char> Program::binary(const ContextDevice& device) const {
  std::lock_guard lock(mutex_);
  const ProgramBuild& b = builds_[slot(device)];
  ProgramBinary binary;
  // A binary's options are build options that give what it was compiled
  // with again; a link's were the linker's, so it gets their equivalent.
  binary.options = origin_ == Origin::Link ? build_options_text(b.parsed) : b.options;
  if (b.module) {
    binary.input = b.input;
    binary.module = *b.module;
  } else if (!b.object.empty()) {
    binary.type = b.binary_type;
    binary.object = b.object;
  } else if (origin_ == Origin::Binary) {
    return binaries_[slot(device)];
  } else {
    return {};
  }
  return encode_binary(binary);
}

// Entry points.

cl_program CL_API_CALL create_program_with_source(cl_context context, cl_uint count, const char** strings,
                                                  const size_t* lengths, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    Context& c = get<Context>(context, CL_INVALID_CONTEXT);
    require(count && strings, CL_INVALID_VALUE, "no strings");
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      require(strings[i], CL_INVALID_VALUE, "a string is NULL");
      if (lengths && lengths[i])
        source.append(strings[i], lengths[i]);
      else
        source.append(strings[i]);
    }
    auto* program = new Program(Ref<Context>(&c), std::move(source));
    return &program->handle;
  });
}

cl_program CL_API_CALL create_program_with_binary(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const size_t* lengths,
                                                  const unsigned char** binaries, cl_int* binary_status,
                                                  cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    Context& c = get<Context>(context, CL_INVALID_CONTEXT);
    require(num_devices && device_list, CL_INVALID_VALUE, "no devices");
    require(lengths && binaries, CL_INVALID_VALUE, "lengths or binaries is NULL");
    std::vector<ContextDevice*> devices;
    std::vector<std::vector<unsigned char>> copies;
    bool all_valid = true;
    for (cl_uint i = 0; i < num_devices; ++i) {
      ContextDevice* d = c.find(device_list[i]);
      require(d, CL_INVALID_DEVICE, "not a device of the context");
      require(lengths[i] && binaries[i], CL_INVALID_VALUE, "a binary is empty or NULL");
      devices.push_back(d);
      copies.emplace_back(binaries[i], binaries[i] + lengths[i]);
      const bool valid = decode_binary(copies.back()).has_value();
      if (binary_status) binary_status[i] = valid ? CL_SUCCESS : CL_INVALID_BINARY;
      all_valid &= valid;
    }
    require(all_valid, CL_INVALID_BINARY, "not a vkcl program binary");
    auto* program = new Program(Ref<Context>(&c), std::move(devices), std::move(copies));
    return &program->handle;
  });
}

cl_int CL_API_CALL retain_program(cl_program program) { return retain_handle<Program>(program, CL_INVALID_PROGRAM); }
cl_int CL_API_CALL release_program(cl_program program) { return release_handle<Program>(program, CL_INVALID_PROGRAM); }

cl_int CL_API_CALL build_program(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                 const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                 void* user_data) {
  return guard([&] {
    Program& p = get<Program>(program, CL_INVALID_PROGRAM);
    require((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE, "num_devices and device_list disagree");
    require(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    std::vector<ContextDevice*> devices;
    for (cl_uint i = 0; i < num_devices; ++i) {
      ContextDevice* d = p.context().find(device_list[i]);
      require(d, CL_INVALID_DEVICE, "not a device of the program's context");
      require(std::find(p.devices().begin(), p.devices().end(), d) != p.devices().end(), CL_INVALID_DEVICE,
              "not a device of the program");
      devices.push_back(d);
    }
    // Built before returning; the callback then says so.
    cl_int result = p.build(std::move(devices), options ? options : "");
    if (pfn_notify) pfn_notify(program, user_data);
    return result;
  });
}

cl_int CL_API_CALL get_program_info(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Program& p = get<Program>(program, CL_INVALID_PROGRAM);
    std::optional<InfoValue> value;
    auto executable = [&]() -> const ProgramBuild& {
      const ProgramBuild* b = p.any_executable();
      require(b, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable for any device");
      return *b;
    };
    switch (param_name) {
      case CL_PROGRAM_REFERENCE_COUNT: value = of<cl_uint>(p.api_reference_count()); break;
      case CL_PROGRAM_CONTEXT: value = of<cl_context>(&p.context().handle); break;
      case CL_PROGRAM_NUM_DEVICES: value = of<cl_uint>(static_cast<cl_uint>(p.devices().size())); break;
      case CL_PROGRAM_DEVICES: {
        std::vector<cl_device_id> ids;
        for (ContextDevice* d : p.devices()) ids.push_back(const_cast<cl_device_id>(&d->device->handle));
        value = array_of(ids);
        break;
      }
      case CL_PROGRAM_SOURCE: value = text(p.from_binary() ? "" : p.source()); break;
      case CL_PROGRAM_IL: {
        // A program from SPIR-V answers with it; any other with nothing (size 0).
        InfoValue il;
        il.bytes.resize(p.il().size() * sizeof(uint32_t));
        if (!il.bytes.empty()) std::memcpy(il.bytes.data(), p.il().data(), il.bytes.size());
        value = std::move(il);
        break;
      }
      case CL_PROGRAM_BINARY_SIZES: {
        std::vector<size_t> sizes;
        for (ContextDevice* d : p.devices()) sizes.push_back(p.binary(*d).size());
        value = array_of(sizes);
        break;
      }
      case CL_PROGRAM_BINARIES: {
        // An array of pointers to memory the application allocated, each
        // BINARY_SIZES long; a NULL entry is skipped.
        const size_t size = p.devices().size() * sizeof(unsigned char*);
        if (param_value_size_ret) *param_value_size_ret = size;
        if (!param_value) return CL_SUCCESS;
        require(param_value_size >= size, CL_INVALID_VALUE, "param_value_size is too small");
        auto** out = static_cast<unsigned char**>(param_value);
        for (size_t i = 0; i < p.devices().size(); ++i) {
          if (!out[i]) continue;
          auto bytes = p.binary(*p.devices()[i]);
          if (!bytes.empty()) std::memcpy(out[i], bytes.data(), bytes.size());
        }
        return CL_SUCCESS;
      }
      case CL_PROGRAM_NUM_KERNELS:
        value = of<size_t>(executable().module->reflection.kernels.size());
        break;
      case CL_PROGRAM_KERNEL_NAMES: {
        std::string names;
        for (const auto& k : executable().module->reflection.kernels) names += (names.empty() ? "" : ";") + k.name;
        value = text(names);
        break;
      }
      case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
      case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: value = of<cl_bool>(CL_FALSE); break;
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL get_program_build_info(cl_program program, cl_device_id device, cl_program_build_info param_name,
                                          size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Program& p = get<Program>(program, CL_INVALID_PROGRAM);
    ContextDevice* d = p.context().find(device);
    require(d && std::find(p.devices().begin(), p.devices().end(), d) != p.devices().end(), CL_INVALID_DEVICE,
            "not a device of the program");
    const ProgramBuild b = p.build_of(*d);
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_PROGRAM_BUILD_STATUS: value = of<cl_build_status>(b.status); break;
      case CL_PROGRAM_BUILD_OPTIONS: value = text(b.options); break;
      case CL_PROGRAM_BUILD_LOG: value = text(b.log); break;
      case CL_PROGRAM_BINARY_TYPE: value = of<cl_program_binary_type>(b.binary_type); break;
      case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: value = of<size_t>(0); break;
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

}  // namespace vkcl::opencl
