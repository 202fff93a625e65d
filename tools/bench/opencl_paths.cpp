#include "opencl_paths.h"

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <filesystem>
#include <stdexcept>

namespace vkcl::bench {
namespace {

// The OpenCL entry points the paths use, from the loader opened at run time.
struct OpenCL {
#define VKCL_BENCH_CL_FUNCTIONS(X)                                                                                   \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateContext)               \
  X(clCreateCommandQueue) X(clCreateProgramWithSource) X(clBuildProgram) X(clGetProgramBuildInfo) X(clCreateKernel) \
  X(clSetKernelArg) X(clCreateBuffer) X(clEnqueueWriteBuffer) X(clEnqueueReadBuffer) X(clEnqueueFillBuffer)       \
  X(clEnqueueNDRangeKernel) X(clFinish) X(clWaitForEvents) X(clGetEventProfilingInfo) X(clReleaseEvent)           \
  X(clReleaseKernel) X(clReleaseProgram) X(clReleaseMemObject) X(clReleaseCommandQueue) X(clReleaseContext)
#define VKCL_BENCH_DECLARE(f) decltype(&::f) f = nullptr;
  VKCL_BENCH_CL_FUNCTIONS(VKCL_BENCH_DECLARE)
#undef VKCL_BENCH_DECLARE
  std::string library;
};

std::string executable_dir() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  path[n] = '\0';
  return std::filesystem::path(path).parent_path().string();
}

// nullptr (and a note) when no loader can be opened.
const OpenCL* load_opencl(std::vector<std::string>& notes) {
  static OpenCL cl;
  static bool tried = false;
  if (tried) return cl.library.empty() ? nullptr : &cl;
  tried = true;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("VKCL_BENCH_LIBOPENCL"); env && *env) candidates.push_back(env);
  candidates.push_back("libOpenCL.so.1");
  candidates.push_back(executable_dir() + "/libOpenCL.so.1");
  for (const std::string& name : candidates) {
    void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) continue;
#define VKCL_BENCH_LOAD(f) cl.f = reinterpret_cast<decltype(&::f)>(::dlsym(handle, #f));
    VKCL_BENCH_CL_FUNCTIONS(VKCL_BENCH_LOAD)
#undef VKCL_BENCH_LOAD
    cl.library = name;
    return &cl;
  }
  notes.push_back("OpenCL: no ICD loader (libOpenCL.so.1) could be opened; set VKCL_BENCH_LIBOPENCL");
  return nullptr;
}

void check(cl_int status, const char* call) {
  if (status != CL_SUCCESS) throw std::runtime_error(std::string(call) + " failed: OpenCL error " + std::to_string(status));
}

std::string platform_info(const OpenCL& cl, cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (cl.clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS) return "";
  std::string text(size, '\0');
  cl.clGetPlatformInfo(p, what, size, text.data(), nullptr);
  return text.c_str();
}
std::string device_info(const OpenCL& cl, cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (cl.clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS) return "";
  std::string text(size, '\0');
  cl.clGetDeviceInfo(d, what, size, text.data(), nullptr);
  return text.c_str();
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// "pocl", "rusticl", "nvidia", else the platform name's first word.
std::string short_name(const std::string& platform) {
  const std::string l = lower(platform);
  if (l.find("portable computing") != std::string::npos || l.find("pocl") != std::string::npos) return "pocl";
  if (l.find("rusticl") != std::string::npos) return "rusticl";
  if (l.find("nvidia") != std::string::npos) return "nvidia";
  return l.substr(0, l.find(' '));
}

// What one workload holds on an OpenCL path, released whatever happens.
struct Resources {
  const OpenCL& cl;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  std::vector<cl_mem> buffers;
  ~Resources() {
    for (cl_mem b : buffers) cl.clReleaseMemObject(b);
    if (kernel) cl.clReleaseKernel(kernel);
    if (program) cl.clReleaseProgram(program);
  }
};

class OpenClPath : public Path {
 public:
  OpenClPath(const OpenCL& cl, cl_platform_id platform, cl_device_id device, std::string source_root)
      : cl_(cl), device_(device), source_root_(std::move(source_root)) {
    name_ = short_name(platform_info(cl, platform, CL_PLATFORM_NAME));
    description_ = platform_info(cl, platform, CL_PLATFORM_NAME) + ": " + device_info(cl, device, CL_DEVICE_NAME) +
                   " (" + device_info(cl, device, CL_DEVICE_VERSION) + ", driver " +
                   device_info(cl, device, CL_DRIVER_VERSION) + ", " + device_info(cl, device, CL_DEVICE_OPENCL_C_VERSION) + ")";
    cl_int status = CL_SUCCESS;
    context_ = cl.clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    queue_ = cl.clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &status);
    check(status, "clCreateCommandQueue");
    const std::string c_version = device_info(cl, device, CL_DEVICE_OPENCL_C_VERSION);  // "OpenCL C 1.2 ..."
    c_major_ = c_version.size() > 9 ? c_version[9] - '0' : 1;
    sub_groups_ = device_info(cl, device, CL_DEVICE_EXTENSIONS).find("cl_khr_subgroups") != std::string::npos;
  }
  ~OpenClPath() override {
    if (queue_) cl_.clReleaseCommandQueue(queue_);
    if (context_) cl_.clReleaseContext(context_);
  }

  std::string name() const override { return name_; }
  std::string describe() const override {
    return description_ + (host_timed_ ? ", timed on the host (its events carry no times)" : ", event profiling");
  }

  Prepared prepare(const Workload& workload, const Case& c) override {
    if (workload.needs_sub_groups && !sub_groups_) return {{"n/a", "the device has no cl_khr_subgroups", {}, {}}, nullptr};
    auto trial = std::make_unique<OpenClTrial>(*this, c);
    try {
      build(trial->resources(), workload.name,
            workload.needs_sub_groups ? (c_major_ >= 3 ? "-cl-std=CL3.0" : "-cl-std=CL2.0") : "-cl-std=CL1.2");
    } catch (const std::exception& e) {
      return {{"compile error", e.what(), {}, {}}, nullptr};
    }
    try {
      trial->fill_buffers();
    } catch (const std::exception& e) {
      return {{"run error", e.what(), {}, {}}, nullptr};
    }
    return verify_first_run(c, std::move(trial));
  }

  // clEnqueueNDRangeKernel of shaders/bench/empty.cl over one work-item, then clFinish.
  std::optional<RunResult> dispatch_overhead(int repeat) override {
    Resources r{cl_};
    RunResult result;
    try {
      build(r, "empty", "-cl-std=CL1.2");
      const size_t one = 1;
      auto once = [&] {
        check(cl_.clEnqueueNDRangeKernel(queue_, r.kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr), "clEnqueueNDRangeKernel");
        check(cl_.clFinish(queue_), "clFinish");
      };
      for (int i = 0; i < 10; ++i) once();
      for (int i = 0; i < repeat; ++i) {
        auto start = std::chrono::steady_clock::now();
        once();
        result.samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
      }
    } catch (const std::exception& e) {
      return RunResult{"run error", e.what(), {}};
    }
    return result;
  }

 private:
  // One workload on this path: its program, kernel and buffers.
  class OpenClTrial : public Trial {
   public:
    OpenClTrial(OpenClPath& path, const Case& c) : path_(path), case_(c), resources_{path.cl_} {}

    // Creates the buffers, writes the inputs and sets the arguments.
    void fill_buffers() {
      const OpenCL& cl = path_.cl_;
      cl_int status = CL_SUCCESS;
      for (const BufferSpec& spec : case_.buffers) {
        resources_.buffers.push_back(cl.clCreateBuffer(path_.context_, CL_MEM_READ_WRITE, spec.bytes, nullptr, &status));
        check(status, "clCreateBuffer");
        if (!spec.output())
          check(cl.clEnqueueWriteBuffer(path_.queue_, resources_.buffers.back(), CL_TRUE, 0, spec.bytes, spec.input.data(), 0,
                                        nullptr, nullptr),
                "clEnqueueWriteBuffer");
      }
      for (cl_uint i = 0; i < case_.args.size(); ++i) {
        const Arg& arg = case_.args[i];
        if (arg.buffer >= 0)
          check(cl.clSetKernelArg(resources_.kernel, i, sizeof(cl_mem), &resources_.buffers[arg.buffer]), "clSetKernelArg");
        else
          check(cl.clSetKernelArg(resources_.kernel, i, sizeof(uint32_t), &arg.value), "clSetKernelArg");
      }
    }

    double run_once() override {
      const OpenCL& cl = path_.cl_;
      const cl_uint zero = 0;
      for (size_t b = 0; b < case_.buffers.size(); ++b)
        if (case_.buffers[b].output())
          check(cl.clEnqueueFillBuffer(path_.queue_, resources_.buffers[b], &zero, sizeof zero, 0, case_.buffers[b].bytes, 0,
                                       nullptr, nullptr),
                "clEnqueueFillBuffer");
      check(cl.clFinish(path_.queue_), "clFinish");
      return path_.time_kernel(resources_.kernel, case_);
    }

    std::vector<std::vector<std::byte>> read_outputs() override {
      std::vector<std::vector<std::byte>> contents(case_.buffers.size());
      for (size_t b = 0; b < case_.buffers.size(); ++b) {
        if (!case_.buffers[b].output()) continue;
        contents[b].resize(case_.buffers[b].bytes);
        check(path_.cl_.clEnqueueReadBuffer(path_.queue_, resources_.buffers[b], CL_TRUE, 0, case_.buffers[b].bytes,
                                            contents[b].data(), 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
      }
      return contents;
    }

    Resources& resources() { return resources_; }

   private:
    OpenClPath& path_;
    const Case& case_;
    Resources resources_;
  };

  void build(Resources& r, const std::string& name, const char* options) {
    const std::string source = read_text(source_root_ + "/shaders/bench/" + name + ".cl");
    const char* text = source.c_str();
    cl_int status = CL_SUCCESS;
    r.program = cl_.clCreateProgramWithSource(context_, 1, &text, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    if (cl_.clBuildProgram(r.program, 1, &device_, options, nullptr, nullptr) != CL_SUCCESS) {
      size_t size = 0;
      cl_.clGetProgramBuildInfo(r.program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      cl_.clGetProgramBuildInfo(r.program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      throw std::runtime_error("clBuildProgram " + std::string(options) + ": " + log.c_str());
    }
    r.kernel = cl_.clCreateKernel(r.program, name.c_str(), &status);
    check(status, "clCreateKernel");
  }

  // One run's milliseconds: from event profiling, or where the platform's
  // events carry no times, on the host around the enqueue and clFinish.
  double time_kernel(cl_kernel kernel, const Case& c) {
    cl_event event = nullptr;
    auto start = std::chrono::steady_clock::now();
    check(cl_.clEnqueueNDRangeKernel(queue_, kernel, c.dims, nullptr, c.global.data(), c.local.data(), 0, nullptr, &event),
          "clEnqueueNDRangeKernel");
    check(cl_.clFinish(queue_), "clFinish");
    const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    cl_ulong begin = 0, end = 0;
    const bool has_times =
        cl_.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof begin, &begin, nullptr) == CL_SUCCESS &&
        cl_.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS;
    cl_.clReleaseEvent(event);
    // Decided at the first run, then kept: an event that says the kernel
    // took under a microsecond of a wait that took over 100 us (rusticl in
    // Mesa 22.3 answers 1 ns) carries no times.
    if (!timing_decided_) {
      host_timed_ = !has_times || end <= begin || (end - begin < 1000 && host_ms > 0.1);
      timing_decided_ = true;
    }
    return host_timed_ ? host_ms : double(end - begin) / 1e6;
  }

  const OpenCL& cl_;
  cl_device_id device_;
  std::string source_root_, name_, description_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  int c_major_ = 1;
  bool sub_groups_ = false;
  bool host_timed_ = false, timing_decided_ = false;
};

}  // namespace

std::vector<std::unique_ptr<Path>> make_opencl_paths(const std::vector<std::string>& filters, std::string source_root,
                                                     std::vector<std::string>& notes) {
  std::vector<std::unique_ptr<Path>> paths;
  const OpenCL* cl = load_opencl(notes);
  if (!cl) return paths;
  cl_uint count = 0;
  if (cl->clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
    notes.push_back("OpenCL: " + cl->library + " finds no platform (no /etc/OpenCL/vendors/*.icd; OCL_ICD_FILENAMES can name a driver)");
    return paths;
  }
  std::vector<cl_platform_id> platforms(count);
  cl->clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    const std::string name = platform_info(*cl, platform, CL_PLATFORM_NAME);
    if (!filters.empty() && std::none_of(filters.begin(), filters.end(), [&](const std::string& f) {
          return lower(name).find(lower(f)) != std::string::npos;
        }))
      continue;
    cl_device_id device = nullptr;
    cl_uint devices = 0;
    if (cl->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &devices) != CL_SUCCESS || devices == 0) {
      notes.push_back("OpenCL: platform '" + name + "' has no device" +
                      (lower(name).find("rusticl") != std::string::npos ? " (RUSTICL_ENABLE=swrast enables llvmpipe)" : ""));
      continue;
    }
    try {
      paths.push_back(std::make_unique<OpenClPath>(*cl, platform, device, source_root));
    } catch (const std::exception& e) {
      notes.push_back("OpenCL: platform '" + name + "': " + e.what());
    }
  }
  return paths;
}

}  // namespace vkcl::bench
