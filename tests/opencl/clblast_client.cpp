// CLBlast (Debian's libclblast-dev) on vkcl: a small client calls SAXPY,
// SGEMV, SGEMM, and DGEMM where the device has fp64, through the ICD loader,
// and checks each against a host reference. CLBlast's kernels are its own,
// compiled at run time with its own options: code vkcl's authors did not
// write. Prints one line per routine; exits non-zero on any mismatch.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <clblast.h>
#include <clblast_c.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(const char* what, CLBlastStatusCode status, double error, double tolerance) {
  const bool ok = status == CLBlastSuccess && error <= tolerance;
  std::printf("%-6s status %d, max error %.3g: %s\n", what, static_cast<int>(status), error, ok ? "ok" : "WRONG");
  failures += !ok;
}

template <typename T>
cl_mem upload(cl_context context, std::vector<T>& values) {
  cl_int error = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T),
                            values.data(), &error);
  if (error != CL_SUCCESS) std::printf("clCreateBuffer: %d\n", error), std::exit(1);
  return m;
}

template <typename T>
std::vector<T> download(cl_command_queue queue, cl_mem m, size_t count) {
  std::vector<T> values(count);
  clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T), values.data(), 0, nullptr, nullptr);
  return values;
}

template <typename T>
double max_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(double(a[i]) - double(b[i])));
  return d;
}

// C = alpha * A(m x k) * B(k x n) + beta * C, row-major, on the host.
template <typename T>
void gemm_reference(size_t m, size_t n, size_t k, T alpha, const std::vector<T>& a, const std::vector<T>& b, T beta,
                    std::vector<T>& c) {
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t l = 0; l < k; ++l) s += double(a[i * k + l]) * b[l * n + j];
      c[i * n + j] = T(alpha * s + beta * c[i * n + j]);
    }
}

// CLBlast chooses its kernels' parameters by device: a GEMM wrong on one
// device and right on another is reproduced elsewhere with these, through
// clblast::OverrideParameters.
void print_gemm_parameters(cl_command_queue queue, clblast::Precision precision) {
  cl_device_id device = nullptr;
  clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr);
  for (const char* kernel : {"GemmRoutine", "XgemmDirect", "Xgemm", "Copy", "Pad", "Transpose", "Padtranspose"}) {
    std::unordered_map<std::string, size_t> parameters;
    if (clblast::RetrieveParameters(device, kernel, precision, parameters) != clblast::StatusCode::kSuccess) continue;
    std::vector<std::pair<std::string, size_t>> sorted(parameters.begin(), parameters.end());
    std::sort(sorted.begin(), sorted.end());
    std::printf("  %s:", kernel);
    for (const auto& [key, value] : sorted) std::printf(" %s=%zu", key.c_str(), value);
    std::printf("\n");
  }
}

template <typename T>
void gemm(const char* name, cl_context context, cl_command_queue queue, double tolerance) {
  // Sizes that are not multiples of CLBlast's tiles, so its padding kernels run too.
  const size_t m = 67, n = 45, k = 83;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<T> a(m * k), b(k * n), c(m * n);
  for (T& x : a) x = T(value(rng));
  for (T& x : b) x = T(value(rng));
  for (T& x : c) x = T(value(rng));
  cl_mem da = upload(context, a), db = upload(context, b), dc = upload(context, c);
  const T alpha = T(1.5), beta = T(-0.5);
  CLBlastStatusCode status;
  if constexpr (sizeof(T) == 4)
    status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, alpha, da, 0, k, db,
                          0, n, beta, dc, 0, n, &queue, nullptr);
  else
    status = CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, alpha, da, 0, k, db,
                          0, n, beta, dc, 0, n, &queue, nullptr);
  gemm_reference(m, n, k, alpha, a, b, beta, c);
  const int failed_before = failures;
  check(name, status, max_difference(download<T>(queue, dc, m * n), c), tolerance);
  if (failures != failed_before) print_gemm_parameters(queue, sizeof(T) == 4 ? clblast::Precision::kSingle
                                                                             : clblast::Precision::kDouble);
  for (cl_mem x : {da, db, dc}) clReleaseMemObject(x);
}

}  // namespace

int main() {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  cl_platform_id platform = nullptr;
  for (cl_platform_id p : platforms) {
    char name[64] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name) == "vkcl") platform = p;
  }
  if (!platform) return std::puts("no vkcl platform: is OCL_ICD_VENDORS set?"), 1;
  cl_device_id device;
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);

  {  // SAXPY: y = 2.5 x + y.
    const size_t n = 10007;
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) x[i] = float(i % 97) * 0.25f, y[i] = float(i % 13);
    cl_mem dx = upload(context, x), dy = upload(context, y);
    CLBlastStatusCode status = CLBlastSaxpy(n, 2.5f, dx, 0, 1, dy, 0, 1, &queue, nullptr);
    for (size_t i = 0; i < n; ++i) y[i] += 2.5f * x[i];
    check("SAXPY", status, max_difference(download<float>(queue, dy, n), y), 1e-4);
    clReleaseMemObject(dx), clReleaseMemObject(dy);
  }
  {  // SGEMV: y = A x (A is 300 x 211, row-major).
    const size_t m = 300, n = 211;
    std::vector<float> a(m * n), x(n), y(m, 0);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float((i * 7) % 11) - 5;
    for (size_t i = 0; i < n; ++i) x[i] = float(i % 5) * 0.5f;
    cl_mem da = upload(context, a), dx = upload(context, x), dy = upload(context, y);
    CLBlastStatusCode status =
        CLBlastSgemv(CLBlastLayoutRowMajor, CLBlastTransposeNo, m, n, 1.0f, da, 0, n, dx, 0, 1, 0.0f, dy, 0, 1, &queue,
                     nullptr);
    for (size_t i = 0; i < m; ++i) {
      double s = 0;
      for (size_t j = 0; j < n; ++j) s += double(a[i * n + j]) * x[j];
      y[i] = float(s);
    }
    check("SGEMV", status, max_difference(download<float>(queue, dy, m), y), 1e-3);
    for (cl_mem b : {da, dx, dy}) clReleaseMemObject(b);
  }
  gemm<float>("SGEMM", context, queue, 1e-4);
  size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
  std::string extensions(size, '\0');
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr);
  if (extensions.find("cl_khr_fp64") != std::string::npos)
    gemm<double>("DGEMM", context, queue, 1e-12);
  else
    std::puts("DGEMM  skipped: the device has no cl_khr_fp64");
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return failures ? 1 : 0;
}
