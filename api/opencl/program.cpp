// Programs: creation from source and binaries, building, the binary format,
// and the program info queries.
#include "program.h"

#include <cstring>

#include "entry_points.h"
#include "errors.h"
#include "info.h"
#include "vkcl/source_program.h"

namespace vkcl::opencl {
namespace {

// What build logs call the program's source: its diagnostics read
// "program.cl:3:5: error: ...".
constexpr std::string_view kSourceName = "program.cl";

// Compiles in a child process, a vkcl-compile-worker per compile
// (vkcl/compile_worker.h): the compiler's process-wide state (its crash
// handlers, its exit() and std::cerr interposition) stays out of the
// application, builds on any number of threads run at once, and a crash in
// clang, LLVM or the translator is a failed build whose log says so.
// `warnings`, when given, gets the compiler's warnings.
VulkanModule compile(const ModuleFeatures& features, std::string_view source, const CompileOptions& options,
                     std::string* warnings = nullptr) {
  BuildSettings settings;
  settings.compile_in = CompileIn::ChildProcess;
  settings.warnings = warnings;
  return compile_module_for(features, source, kSourceName, options, settings);
}

constexpr char kMagic[8] = {'v', 'k', 'c', 'l', 'P', 'R', 'G', '1'};

void put_field(std::vector<unsigned char>& out, const void* data, size_t size) {
  const uint64_t n = size;
  const auto* p = reinterpret_cast<const unsigned char*>(&n);
  out.insert(out.end(), p, p + sizeof n);
  out.insert(out.end(), static_cast<const unsigned char*>(data), static_cast<const unsigned char*>(data) + size);
}

}  // namespace

std::vector<unsigned char> encode_binary(std::string_view source, std::string_view options, const VulkanModule& module) {
  std::vector<unsigned char> out(kMagic, kMagic + sizeof kMagic);
  put_field(out, source.data(), source.size());
  put_field(out, options.data(), options.size());
  put_field(out, module.words.data(), module.words.size() * sizeof(uint32_t));
  const std::string reflection = serialize(module.reflection);
  put_field(out, reflection.data(), reflection.size());
  return out;
}

std::optional<DecodedBinary> decode_binary(std::span<const unsigned char> bytes) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  bytes = bytes.subspan(sizeof kMagic);
  auto field = [&]() -> std::optional<std::span<const unsigned char>> {
    uint64_t n;
    if (bytes.size() < sizeof n) return std::nullopt;
    std::memcpy(&n, bytes.data(), sizeof n);
    bytes = bytes.subspan(sizeof n);
    if (n > bytes.size()) return std::nullopt;
    auto f = bytes.first(n);
    bytes = bytes.subspan(n);
    return f;
  };
  auto source = field(), options = field(), words = field(), reflection = field();
  if (!reflection || !bytes.empty() || words->size() % 4 != 0 || words->empty()) return std::nullopt;
  DecodedBinary d;
  d.source.assign(source->begin(), source->end());
  d.options.assign(options->begin(), options->end());
  d.module.words.resize(words->size() / 4);
  std::memcpy(d.module.words.data(), words->data(), words->size());
  try {
    d.module.reflection = parse_reflection(std::string_view(reinterpret_cast<const char*>(reflection->data()), reflection->size()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return d;
}

Program::Program(Ref<Context> context, std::string source) : context_(std::move(context)), source_(std::move(source)) {
  for (size_t i = 0; i < context_->device_count(); ++i) devices_.push_back(&context_->device(i));
  builds_.resize(devices_.size());
}

Program::Program(Ref<Context> context, std::vector<ContextDevice*> devices,
                 std::vector<std::vector<unsigned char>> binaries)
    : context_(std::move(context)), from_binary_(true), devices_(std::move(devices)), binaries_(std::move(binaries)) {
  builds_.resize(devices_.size());
  for (size_t i = 0; i < devices_.size(); ++i) {
    // The binary type is known before the build: an executable.
    if (decode_binary(binaries_[i])) builds_[i].binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  }
}

size_t Program::slot(const ContextDevice& device) const {
  for (size_t i = 0; i < devices_.size(); ++i)
    if (devices_[i] == &device) return i;
  throw ClError{CL_INVALID_DEVICE, "not a device of the program"};
}

void Program::build_one(ContextDevice& device, const BuildOptions& parsed, ProgramBuild& build) {
  std::string source = source_;
  CompileOptions options;
  std::optional<VulkanModule> module;
  if (from_binary_) {
    auto decoded = decode_binary(binaries_[slot(device)]);
    if (!decoded) throw ClError{CL_INVALID_BINARY, "not a vkcl program binary"};
    source = std::move(decoded->source);
    // The binary's own options decide what it was compiled with.
    options = parse_build_options(decoded->options).compile;
    build.options = decoded->options;
    module = std::move(decoded->module);
  } else {
    options = parsed.compile;
  }
  const ModuleFeatures features = device.runtime.features();
  options = compile_options_for(device.runtime, std::move(options));
  std::string warnings;
  try {
    if (!module) module = compile(features, source, options, &warnings);
    auto recompile = [features, source](const CompileOptions& o) { return compile(features, source, o); };
    std::lock_guard lock(device.lock);
    build.runtime = std::make_shared<vkcl::Program>(load_program(device.runtime, *module, options, recompile));
  } catch (const CompileError& e) {
    build.log = e.what();
    build.status = CL_BUILD_ERROR;
    return;
  } catch (const vkcl::Error& e) {
    // The module does not load on this device (a feature it lacks): a
    // binary is then not one for this device.
    build.log = std::string("vkcl: ") + e.what();
    build.status = CL_BUILD_ERROR;
    if (from_binary_) throw ClError{CL_INVALID_BINARY, e.what()};
    return;
  }
  build.module = std::move(module);
  build.parsed.compile = options;
  build.log = std::move(warnings);  // CL_PROGRAM_BUILD_LOG of a build that succeeded
  build.status = CL_BUILD_SUCCESS;
  build.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

cl_int Program::build(std::vector<ContextDevice*> devices, std::string_view options) {
  {
    std::lock_guard lock(mutex_);
    require(!building_, CL_INVALID_OPERATION, "a build of the program is in progress");
    require(kernel_count.load() == 0, CL_INVALID_OPERATION, "kernels of the program exist");
    building_ = true;
  }
  struct Done {
    Program* p;
    ~Done() {
      std::lock_guard lock(p->mutex_);
      p->building_ = false;
    }
  } done{this};
  if (devices.empty()) devices = devices_;
  for (ContextDevice* d : devices) slot(*d);
  const BuildOptions parsed = parse_build_options(options);
  bool failed = false;
  for (ContextDevice* d : devices) {
    ProgramBuild build;
    build.options = std::string(options);
    build.parsed = parsed;
    build.status = CL_BUILD_IN_PROGRESS;
    {
      std::lock_guard lock(mutex_);
      builds_[slot(*d)].status = CL_BUILD_IN_PROGRESS;
    }
    try {
      build_one(*d, parsed, build);
    } catch (...) {
      std::lock_guard lock(mutex_);
      builds_[slot(*d)].status = CL_BUILD_ERROR;
      throw;
    }
    build.parsed.kernel_arg_info = parsed.kernel_arg_info;
    build.parsed.uniform_work_groups = parsed.uniform_work_groups;
    failed |= build.status != CL_BUILD_SUCCESS;
    std::lock_guard lock(mutex_);
    builds_[slot(*d)] = std::move(build);
  }
  return failed ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS;
}

ProgramBuild Program::build_of(const ContextDevice& device) const {
  std::lock_guard lock(mutex_);
  return builds_[slot(device)];
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
  if (from_binary_ && !b.module) return binaries_[slot(device)];
  if (!b.module) return {};
  return encode_binary(source_, b.options, *b.module);
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
      case CL_PROGRAM_IL: value = InfoValue{}; break;
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
