// vkcl_diff_opencl: runs corpus kernels through an OpenCL implementation (the
// reference side of the differential test) and writes their outputs.
//
//   vkcl_diff_opencl --out DIR [--platform NAME] [--bench-scale] [--repeat N] FILE.cl...
//
// For each file, in order: builds the kernel from its source with the
// header's -cl-std and -D options, makes the inputs the header asks for, runs
// it over the header's ND-range and writes each checked buffer to
// DIR/<id>.<arg>.bin, then DIR/<id>.opencl: a first line "ok",
// "opencl-unsupported" or "opencl-error", a second with the seconds it took
// (build and run), then the details. The status file is written last (and
// renamed into place), so a kernel without one was not finished: the process
// died on it.
//
// For the corpus benchmark (tools/corpus_bench): --bench-scale runs each
// kernel with its @bench-* directives applied (corpus.h, at_bench_scale), and
// --repeat N, after the checked run, runs it N times more on the same buffers
// (the checked buffers written back to their initial contents before each,
// as vkcl's side does: tests/differential/vkcl_side.h) on a profiling queue,
// each timed from its event's COMMAND_START to COMMAND_END, and adds the
// median and minimum as a timing line (worker.h) to the details. Where the
// platform's events carry no times (rusticl in Mesa 22.3), each run is timed
// on the host around the enqueue and clFinish, and the line says so.
//
// DIR/platform.txt names the platform and device; when there is none,
// DIR/fatal.txt says why and the exit status is 3.
//
// It loads the OpenCL ICD loader at run time (VKCL_DIFF_OPENCL_LIBRARY, else
// libOpenCL.so.1) and picks the platform whose name contains --platform's
// NAME, else VKCL_DIFF_OPENCL_PLATFORM (case-insensitive; "pocl" finds PoCL;
// default: PoCL when present, else the first), and its first device (or the one whose name contains
// VKCL_DIFF_OPENCL_DEVICE). It runs in its own process so that the OpenCL
// implementation's LLVM never shares a process with vkcl's, and a crash in
// it costs one kernel, not the test.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  // clCreateCommandQueue: also what 1.2 platforms have
#include <CL/cl.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "corpus.h"
#include "worker.h"

namespace {

namespace fs = std::filesystem;
using namespace vkcl::corpus;

#define VKCL_CL_FUNCTIONS(X)                                                                                      \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateContext)             \
  X(clCreateCommandQueue) X(clCreateProgramWithSource) X(clBuildProgram) X(clGetProgramBuildInfo)             \
  X(clCreateKernel) X(clSetKernelArg) X(clCreateBuffer) X(clCreateSubBuffer) X(clEnqueueNDRangeKernel) X(clFinish)                  \
  X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clEnqueueCopyBuffer) X(clGetEventProfilingInfo) X(clReleaseEvent) X(clReleaseMemObject) X(clReleaseKernel) \
  X(clReleaseProgram) X(clReleaseCommandQueue) X(clReleaseContext)

struct OpenCL {
#define VKCL_CL_MEMBER(name) decltype(&::name) name = nullptr;
  VKCL_CL_FUNCTIONS(VKCL_CL_MEMBER)
#undef VKCL_CL_MEMBER
};
OpenCL cl;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

struct Failure {
  std::string status, message;
};

void check(cl_int result, const char* call) {
  if (result != CL_SUCCESS) throw Failure{"opencl-error", std::string(call) + " failed with " + std::to_string(result)};
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  cl.clGetPlatformInfo(p, what, 0, nullptr, &size);
  std::string s(size, '\0');
  cl.clGetPlatformInfo(p, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (cl.clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS) return "";
  std::string s(size, '\0');
  cl.clGetDeviceInfo(d, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

// Extensions plus OpenCL C 3.0 feature macros (__opencl_c_subgroups, ...).
std::vector<std::string> device_capabilities(cl_device_id d) {
  std::vector<std::string> caps;
  std::string extensions = device_string(d, CL_DEVICE_EXTENSIONS);
  for (size_t pos = 0; pos < extensions.size();) {
    size_t end = extensions.find(' ', pos);
    if (end == std::string::npos) end = extensions.size();
    if (end > pos) caps.push_back(extensions.substr(pos, end - pos));
    pos = end + 1;
  }
  size_t size = 0;
  if (cl.clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size) == CL_SUCCESS && size) {
    std::vector<cl_name_version> features(size / sizeof(cl_name_version));
    cl.clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr);
    for (const cl_name_version& f : features) caps.emplace_back(f.name);
  }
  return caps;
}

struct Context {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::vector<std::string> capabilities;
};

// Picks the platform and device; returns "" or why it could not.
// `platform`: a substring of the platform's name; empty: VKCL_DIFF_OPENCL_PLATFORM's.
std::string open_device(Context& ctx, std::string& description, bool profiling, const std::string& platform) {
  const std::string library = env("VKCL_DIFF_OPENCL_LIBRARY").empty() ? "libOpenCL.so.1" : env("VKCL_DIFF_OPENCL_LIBRARY");
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return "cannot load the OpenCL library " + library + ": " + dlerror();
#define VKCL_CL_LOAD(name)                                                                       \
  cl.name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name));                           \
  if (!cl.name) return library + " lacks " #name;
  VKCL_CL_FUNCTIONS(VKCL_CL_LOAD)
#undef VKCL_CL_LOAD

  cl_uint count = 0;
  if (cl.clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return "no OpenCL platform is installed";
  std::vector<cl_platform_id> platforms(count);
  cl.clGetPlatformIDs(count, platforms.data(), nullptr);
  const std::string wanted = lower(platform.empty() ? env("VKCL_DIFF_OPENCL_PLATFORM") : platform);
  cl_platform_id chosen = nullptr;
  std::string names;
  for (cl_platform_id p : platforms) {
    std::string name = platform_string(p, CL_PLATFORM_NAME);
    names += (names.empty() ? "" : ", ") + name;
    std::string l = lower(name);
    // PoCL calls itself "Portable Computing Language": "pocl" finds it too.
    const bool is_pocl = l.find("portable computing language") != std::string::npos || l.find("pocl") != std::string::npos;
    if (!chosen && (wanted.empty() || wanted == "pocl" ? is_pocl : l.find(wanted) != std::string::npos)) chosen = p;
  }
  if (!chosen && !wanted.empty()) return "no OpenCL platform's name contains '" + wanted + "' (there are: " + names + ")";
  if (!chosen) chosen = platforms[0];

  cl_uint device_count = 0;
  if (cl.clGetDeviceIDs(chosen, CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count) != CL_SUCCESS || device_count == 0)
    return "platform " + platform_string(chosen, CL_PLATFORM_NAME) + " has no devices";
  std::vector<cl_device_id> devices(device_count);
  cl.clGetDeviceIDs(chosen, CL_DEVICE_TYPE_ALL, device_count, devices.data(), nullptr);
  const std::string wanted_device = lower(env("VKCL_DIFF_OPENCL_DEVICE"));
  for (cl_device_id d : devices)
    if (wanted_device.empty() || lower(device_string(d, CL_DEVICE_NAME)).find(wanted_device) != std::string::npos) {
      ctx.device = d;
      break;
    }
  if (!ctx.device) return "no device of the platform has '" + wanted_device + "' in its name";

  cl_int error = CL_SUCCESS;
  ctx.context = cl.clCreateContext(nullptr, 1, &ctx.device, nullptr, nullptr, &error);
  if (error != CL_SUCCESS) return "clCreateContext failed with " + std::to_string(error);
  ctx.queue = cl.clCreateCommandQueue(ctx.context, ctx.device, profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &error);
  if (error != CL_SUCCESS) return "clCreateCommandQueue failed with " + std::to_string(error);
  ctx.capabilities = device_capabilities(ctx.device);
  description = "platform: " + platform_string(chosen, CL_PLATFORM_NAME) + " (" +
                platform_string(chosen, CL_PLATFORM_VERSION) + ")\ndevice: " + device_string(ctx.device, CL_DEVICE_NAME) +
                " (" + device_string(ctx.device, CL_DEVICE_VERSION) + ", driver " +
                device_string(ctx.device, CL_DRIVER_VERSION) + ")\n";
  return "";
}

void write_file(const fs::path& path, const void* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), std::streamsize(size));
  if (!out) throw Failure{"opencl-error", "cannot write " + path.string()};
}

// A checked output and where its first contents wait on the device.
struct Restore {
  cl_mem pristine = nullptr, target = nullptr;
  size_t offset = 0, bytes = 0;
};

// `runs` runs of what `enqueue` enqueues, back to back on the device, each
// after the checked outputs are copied back from their pristine copies
// (clEnqueueCopyBuffer), so that the device never waits for the host between
// runs; vkcl's side does the same (vkcl_side.cpp, corpus::kWarmUp). Each run
// is timed by its event, or all of them on the host (their mean, copies
// included) when any event carries no times: one that says the kernel took
// 10 ns or less carries none (rusticl in Mesa 22.3 answers 1 ns).
template <typename Enqueue>
KernelTiming time_runs(Context& ctx, int runs, const std::vector<Restore>& restores, Enqueue enqueue) {
  auto enqueue_runs = [&](std::vector<cl_event>* events) {
    for (int i = 0; i < runs; ++i) {
      for (const Restore& r : restores)
        check(cl.clEnqueueCopyBuffer(ctx.queue, r.pristine, r.target, 0, r.offset, r.bytes, 0, nullptr, nullptr),
              "clEnqueueCopyBuffer");
      check(enqueue(events ? &(*events)[size_t(i)] : nullptr), "clEnqueueNDRangeKernel");
    }
  };
  // The warm-up is the timed batch itself: a GPU idle while the inputs were
  // made runs its first kernels at a low clock.
  const auto warm_up_start = std::chrono::steady_clock::now();
  for (int w = 0; w < vkcl::corpus::kWarmUp.min_runs ||
                  std::chrono::steady_clock::now() - warm_up_start < vkcl::corpus::kWarmUp.min_time;
       ++w) {
    enqueue_runs(nullptr);
    check(cl.clFinish(ctx.queue), "clFinish");
  }
  std::vector<cl_event> events(size_t(runs), nullptr);
  const auto start = std::chrono::steady_clock::now();
  enqueue_runs(&events);
  check(cl.clFinish(ctx.queue), "clFinish");
  const double host_ms_per_run =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / runs;
  std::vector<double> event_ms;
  for (cl_event event : events) {
    cl_ulong begin = 0, end = 0;
    const bool has_times =
        cl.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof begin, &begin, nullptr) == CL_SUCCESS &&
        cl.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS &&
        end > begin + 10;
    cl.clReleaseEvent(event);
    if (has_times) event_ms.push_back(double(end - begin) / 1e6);
  }
  KernelTiming timing;
  timing.runs = runs;
  timing.host_clock = event_ms.size() != size_t(runs);
  const std::vector<double> samples = timing.host_clock ? std::vector<double>{host_ms_per_run} : event_ms;
  timing.median_ms = median(samples);
  timing.min_ms = *std::min_element(samples.begin(), samples.end());
  return timing;
}

// Builds and runs one kernel; writes its checked buffers; then `timed_runs`
// timed runs. Returns the note on its times.
std::string run_kernel(Context& ctx, const KernelSpec& spec, const fs::path& out_dir, int timed_runs) {
  for (const std::string& r : spec.requires_)
    if (std::find(ctx.capabilities.begin(), ctx.capabilities.end(), r) == ctx.capabilities.end())
      throw Failure{"opencl-unsupported", "the OpenCL device lacks " + r};

  const std::string source = read_file(spec.file);
  const char* text = source.c_str();
  cl_int error = CL_SUCCESS;
  auto start = std::chrono::steady_clock::now();
  cl_program program = cl.clCreateProgramWithSource(ctx.context, 1, &text, nullptr, &error);
  check(error, "clCreateProgramWithSource");
  struct Releaser {
    std::vector<cl_mem> buffers;
    cl_program program = nullptr;
    cl_kernel kernel = nullptr;
    ~Releaser() {
      for (cl_mem b : buffers) cl.clReleaseMemObject(b);
      if (kernel) cl.clReleaseKernel(kernel);
      if (program) cl.clReleaseProgram(program);
    }
  } held;
  held.program = program;
  const std::string options = spec.build_options();
  if (cl.clBuildProgram(program, 1, &ctx.device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    size_t size = 0;
    cl.clGetProgramBuildInfo(program, ctx.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    cl.clGetProgramBuildInfo(program, ctx.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    throw Failure{"opencl-error", "clBuildProgram (" + options + ") failed:\n" + log};
  }
  auto built = std::chrono::steady_clock::now();
  held.kernel = cl.clCreateKernel(program, spec.kernel.c_str(), &error);
  check(error, "clCreateKernel");

  std::vector<cl_mem> buffers(spec.args.size(), nullptr);
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const Arg& arg = spec.args[i];
    if (arg.is_buffer()) {
      // The argument is a sub-buffer in the middle of one with guards around it (corpus.h).
      std::vector<std::byte> whole = guarded(arg);
      buffers[i] = cl.clCreateBuffer(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, whole.size(), whole.data(),
                                     &error);
      check(error, "clCreateBuffer");
      held.buffers.push_back(buffers[i]);
      cl_buffer_region region{kGuardBytes, arg.bytes()};
      cl_mem middle = cl.clCreateSubBuffer(buffers[i], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
      check(error, "clCreateSubBuffer");
      held.buffers.push_back(middle);
      check(cl.clSetKernelArg(held.kernel, cl_uint(i), sizeof(cl_mem), &middle), "clSetKernelArg (buffer)");
    } else if (arg.kind == ArgKind::Local) {
      check(cl.clSetKernelArg(held.kernel, cl_uint(i), arg.bytes(), nullptr), "clSetKernelArg (__local)");
    } else {
      std::vector<std::byte> bytes = scalar_bytes(arg);
      check(cl.clSetKernelArg(held.kernel, cl_uint(i), bytes.size(), bytes.data()), "clSetKernelArg (scalar)");
    }
  }
  size_t global[3], local[3], offset[3];
  for (int d = 0; d < 3; ++d) {
    global[d] = spec.global[d];
    local[d] = spec.local[d];
    offset[d] = spec.offset[d];
  }
  auto enqueue = [&](cl_event* event) {
    return cl.clEnqueueNDRangeKernel(ctx.queue, held.kernel, spec.dims, spec.has_offset ? offset : nullptr, global,
                                     spec.has_local ? local : nullptr, 0, nullptr, event);
  };
  check(enqueue(nullptr), "clEnqueueNDRangeKernel");
  check(cl.clFinish(ctx.queue), "clFinish");
  std::string overrun;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const Arg& arg = spec.args[i];
    if (!arg.is_buffer()) continue;
    std::vector<std::byte> whole(arg.bytes() + 2 * kGuardBytes);
    check(cl.clEnqueueReadBuffer(ctx.queue, buffers[i], CL_TRUE, 0, whole.size(), whole.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    std::string o = check_guards(arg, whole);
    if (!o.empty()) overrun += (overrun.empty() ? "" : "; ") + o;
    for (const Check& c : spec.checks) {
      if (c.arg != arg.name) continue;
      // A checked buffer the kernel left as it was tests nothing: a mistake in the header or the kernel.
      if (std::equal(whole.begin(), whole.end(), guarded(arg).begin()))
        throw Failure{"opencl-error", "the kernel left '" + arg.name + "' unchanged: the check compares nothing"};
      write_file(out_dir / (spec.id + "." + c.arg + ".bin"), whole.data() + kGuardBytes, arg.bytes());
    }
  }
  if (!overrun.empty()) throw Failure{"opencl-error", "the kernel wrote outside a buffer: " + overrun};
  auto done = std::chrono::steady_clock::now();
  char note[96];
  std::snprintf(note, sizeof note, "build %.3f s, run %.3f s",
                std::chrono::duration<double>(built - start).count(), std::chrono::duration<double>(done - built).count());
  if (timed_runs == 0) return note;
  std::vector<Restore> restores;  // the checked buffers, from their first contents
  for (const Check& c : spec.checks)
    for (size_t i = 0; i < spec.args.size(); ++i) {
      if (spec.args[i].name != c.arg) continue;
      std::vector<std::byte> initial = generate(spec.args[i]);
      Restore r{nullptr, buffers[i], kGuardBytes, initial.size()};
      r.pristine = cl.clCreateBuffer(ctx.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, initial.size(), initial.data(),
                                     &error);
      check(error, "clCreateBuffer (a checked output's first contents)");
      held.buffers.push_back(r.pristine);
      restores.push_back(r);
    }
  return timing_line(time_runs(ctx, timed_runs, restores, enqueue)) + "\n" + note;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path out_dir;
  std::vector<fs::path> files;
  std::string platform;
  bool bench_scale = false;
  int timed_runs = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) out_dir = argv[++i];
    else if (a == "--platform" && i + 1 < argc) platform = argv[++i];
    else if (a == "--bench-scale") bench_scale = true;
    else if (a == "--repeat" && i + 1 < argc) timed_runs = std::atoi(argv[++i]);
    else files.emplace_back(a);
  }
  if (out_dir.empty() || timed_runs < 0) {
    std::fprintf(stderr, "usage: vkcl_diff_opencl --out DIR [--platform NAME] [--bench-scale] [--repeat N] FILE.cl...\n");
    return 2;
  }
  fs::create_directories(out_dir);
  Context ctx;
  std::string description;
  std::string why = open_device(ctx, description, timed_runs > 0, platform);
  if (!why.empty()) {
    std::ofstream(out_dir / "fatal.txt", std::ios::trunc) << why << "\n";
    return kWorkerFatal;
  }
  std::ofstream(out_dir / "platform.txt", std::ios::trunc) << description;

  for (const fs::path& file : files) {
    std::string id = file.stem().string();
    std::string status = "ok", message;
    auto start = std::chrono::steady_clock::now();
    try {
      const KernelSpec spec = bench_scale ? at_bench_scale(load_spec(file)) : load_spec(file);
      message = run_kernel(ctx, spec, out_dir, timed_runs);
    } catch (const Failure& f) {
      status = f.status;
      message = f.message;
    } catch (const std::exception& e) {
      status = "opencl-error";
      message = e.what();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_result(out_dir, id, ".opencl", status, seconds, message);
  }
  if (ctx.queue) cl.clReleaseCommandQueue(ctx.queue);
  if (ctx.context) cl.clReleaseContext(ctx.context);
  return 0;
}
