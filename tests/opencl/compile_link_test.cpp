// Separate compilation through the ICD: clCompileProgram (with input
// headers), clLinkProgram into executables and libraries, a kernel calling
// a function and a kernel defined in another program, binaries of compiled
// objects, libraries and linked executables through
// clCreateProgramWithBinary, callbacks, and every error code.
#include <cstring>
#include <numeric>
#include <regex>

#include "cl_test.h"

using vkcl_test::ClTest;

namespace {

const char* kCaller = R"(
int twice(int x);
extern kernel void copy_one(global int* out, global const int* in);
kernel void caller(global int* out, global const int* in) {
  size_t i = get_global_id(0);
  out[i] = twice(in[i]) + FORTY;
  if (i == 0) copy_one(out + 100, in);
}
)";

const char* kCallee = R"(
int twice(int x) { return 2 * x; }
kernel void copy_one(global int* out, global const int* in) { out[0] = in[7]; }
)";

class CompileLinkTest : public ClTest {
 protected:
  cl_program source(const char* text) {
    cl_int error = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    return p;
  }

  cl_program compiled(const char* text, const char* options = "-DFORTY=40") {
    cl_program p = source(text);
    EXPECT_EQ(clCompileProgram(p, 1, &device, options, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
        << build_log(p);
    return p;
  }

  cl_program link(std::vector<cl_program> inputs, const char* options = "", cl_int expected = CL_SUCCESS) {
    cl_int error = CL_SUCCESS;
    cl_program p = clLinkProgram(context, 1, &device, options, cl_uint(inputs.size()), inputs.data(), nullptr,
                                 nullptr, &error);
    EXPECT_EQ(error, expected) << (p ? build_log(p) : "");
    return p;
  }

  cl_program_binary_type binary_type(cl_program p) {
    cl_program_binary_type type = 0;
    EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
    return type;
  }

  cl_build_status status(cl_program p) {
    cl_build_status s = 0;
    EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, nullptr), CL_SUCCESS);
    return s;
  }

  std::vector<unsigned char> binary_of(cl_program p) {
    size_t size = 0;
    EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
    std::vector<unsigned char> bytes(size);
    unsigned char* list[] = {bytes.data()};
    EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof list, list, nullptr), CL_SUCCESS);
    return bytes;
  }

  cl_program from_binary(const std::vector<unsigned char>& bytes) {
    const unsigned char* list[] = {bytes.data()};
    const size_t size = bytes.size();
    cl_int status = 1, error = 1;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &size, list, &status, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    EXPECT_EQ(status, CL_SUCCESS);
    return p;
  }

  // Runs `caller` from `p` on 64 work-items, `in` 0, 1, 2, ..., and checks
  // what it and the copy_one it calls wrote.
  void expect_caller_runs(cl_program p) {
    cl_kernel k = kernel(p, "caller");
    const size_t n = 64;
    std::vector<int> input(n);
    std::iota(input.begin(), input.end(), 0);
    cl_mem in = buffer(n * sizeof(int)), out = buffer(128 * sizeof(int));
    write(in, input);
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(k, 1, sizeof in, &in), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    const std::vector<int> got = read<int>(out, 128);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], int(2 * i + 40)) << i;
    EXPECT_EQ(got[100], 7);  // copy_one, a kernel of the other program, called as a function
    clReleaseKernel(k);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
  }
};

TEST_F(CompileLinkTest, TheLinkerIsAvailable) {
  cl_bool linker = CL_FALSE;
  EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_LINKER_AVAILABLE, sizeof linker, &linker, nullptr), CL_SUCCESS);
  EXPECT_EQ(linker, cl_bool(CL_TRUE));
}

TEST_F(CompileLinkTest, ObjectsOfTwoProgramsLinkAndCallEachOther) {
  cl_program caller = source(kCaller);
  EXPECT_EQ(status(caller), CL_BUILD_NONE);
  EXPECT_EQ(binary_type(caller), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_NONE));
  cl_program callee = compiled(kCallee);
  ASSERT_EQ(clCompileProgram(caller, 1, &device, "-DFORTY=40", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
      << build_log(caller);
  EXPECT_EQ(status(caller), CL_BUILD_SUCCESS);
  EXPECT_EQ(binary_type(caller), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  char options[32] = {};
  EXPECT_EQ(clGetProgramBuildInfo(caller, device, CL_PROGRAM_BUILD_OPTIONS, sizeof options, options, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(std::string(options), "-DFORTY=40");
  // A compiled object is not an executable.
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(caller, "caller", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);

  cl_program linked = link({caller, callee});
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(status(linked), CL_BUILD_SUCCESS);
  EXPECT_EQ(binary_type(linked), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  char names[64] = {};
  EXPECT_EQ(clGetProgramInfo(linked, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, nullptr), CL_SUCCESS);
  const std::string kernel_names = names;
  EXPECT_NE(kernel_names.find("caller"), std::string::npos) << kernel_names;
  EXPECT_NE(kernel_names.find("copy_one"), std::string::npos) << kernel_names;
  cl_uint devices = 0;
  EXPECT_EQ(clGetProgramInfo(linked, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices, nullptr), CL_SUCCESS);
  EXPECT_EQ(devices, 1u);
  cl_context linked_context = nullptr;
  EXPECT_EQ(clGetProgramInfo(linked, CL_PROGRAM_CONTEXT, sizeof linked_context, &linked_context, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(linked_context, context);
  size_t source_size = 0;
  EXPECT_EQ(clGetProgramInfo(linked, CL_PROGRAM_SOURCE, 0, nullptr, &source_size), CL_SUCCESS);
  EXPECT_EQ(source_size, 1u);  // no source of its own: ""
  expect_caller_runs(linked);
  // A program clLinkProgram made is built already.
  EXPECT_EQ(clBuildProgram(linked, 1, &device, "", nullptr, nullptr), CL_INVALID_OPERATION);
  clReleaseProgram(linked);
  clReleaseProgram(caller);
  clReleaseProgram(callee);
}

TEST_F(CompileLinkTest, ALibraryLinksIntoAnExecutable) {
  cl_program callee = compiled(kCallee);
  cl_program library = link({callee}, "-create-library");
  ASSERT_NE(library, nullptr);
  EXPECT_EQ(status(library), CL_BUILD_SUCCESS);
  EXPECT_EQ(binary_type(library), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(library, "copy_one", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program library_with_options = link({callee}, "-create-library -enable-link-options -cl-denorms-are-zero");
  EXPECT_EQ(binary_type(library_with_options), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program caller = compiled(kCaller);
  cl_program linked = link({caller, library}, "-cl-denorms-are-zero -cl-finite-math-only");
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(binary_type(linked), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  expect_caller_runs(linked);
  for (cl_program p : {linked, caller, library, library_with_options, callee}) clReleaseProgram(p);
}

TEST_F(CompileLinkTest, InputHeadersAreIncludedByTheirNames) {
  cl_program header = source("#define FORTY 40\nint twice(int x);\n");
  cl_program nested = source("#include \"defs.h\"\n");
  cl_program caller =
      source("#include \"inc/all.h\"\n"
             "extern kernel void copy_one(global int* out, global const int* in);\n"
             "kernel void caller(global int* out, global const int* in) {\n"
             "  size_t i = get_global_id(0);\n"
             "  out[i] = twice(in[i]) + FORTY;\n"
             "  if (i == 0) copy_one(out + 100, in);\n"
             "}\n");
  cl_program headers[] = {header, nested};
  const char* names[] = {"defs.h", "inc/all.h"};
  ASSERT_EQ(clCompileProgram(caller, 1, &device, "", 2, headers, names, nullptr, nullptr), CL_SUCCESS)
      << build_log(caller);
  cl_program callee = compiled(kCallee);
  cl_program linked = link({caller, callee});
  expect_caller_runs(linked);
  // The arrays must agree with their count; each name must be given.
  EXPECT_EQ(clCompileProgram(caller, 1, &device, "", 0, headers, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(caller, 1, &device, "", 0, nullptr, names, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(caller, 1, &device, "", 2, headers, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(caller, 1, &device, "", 2, nullptr, names, nullptr, nullptr), CL_INVALID_VALUE);
  const char* no_name[] = {"defs.h", nullptr};
  EXPECT_EQ(clCompileProgram(caller, 1, &device, "", 2, headers, no_name, nullptr, nullptr), CL_INVALID_VALUE);
  cl_program not_a_program[] = {header, reinterpret_cast<cl_program>(context)};
  EXPECT_EQ(clCompileProgram(caller, 1, &device, "", 2, not_a_program, names, nullptr, nullptr),
            CL_INVALID_PROGRAM);
  // Without the headers the include fails, with the log saying where.
  EXPECT_EQ(clCompileProgram(caller, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(build_log(caller).find("program.cl:1:10: fatal error: 'inc/all.h' file not found"), std::string::npos)
      << build_log(caller);
  for (cl_program p : {linked, caller, callee, header, nested}) clReleaseProgram(p);
}

TEST_F(CompileLinkTest, CompileErrors) {
  cl_program bad = source("int f(void) { return nope; }\n");
  EXPECT_EQ(clCompileProgram(bad, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_EQ(status(bad), CL_BUILD_ERROR);
  EXPECT_NE(build_log(bad).find("program.cl:1:22: error: use of undeclared identifier 'nope'"), std::string::npos)
      << build_log(bad);
  cl_program good = source(kCallee);
  EXPECT_EQ(clCompileProgram(good, 1, &device, "-cl-no-such-option", 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_COMPILER_OPTIONS);
  EXPECT_EQ(clCompileProgram(good, 1, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(good, 0, &device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  int data = 0;
  EXPECT_EQ(clCompileProgram(good, 1, &device, "", 0, nullptr, nullptr, nullptr, &data), CL_INVALID_VALUE);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(context);
  EXPECT_EQ(clCompileProgram(good, 1, &not_a_device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_DEVICE);
  EXPECT_EQ(clCompileProgram(nullptr, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
  // All devices when none are named.
  EXPECT_EQ(clCompileProgram(good, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  // Kernels pin a program: it may not be compiled again.
  cl_program built = program(kCallee);
  cl_kernel k = kernel(built, "copy_one");
  EXPECT_EQ(clCompileProgram(built, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  // A program from a binary has neither source nor IL to compile.
  cl_program binary = from_binary(binary_of(built));
  EXPECT_EQ(clCompileProgram(binary, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_OPERATION);
  for (cl_program p : {bad, good, built, binary}) clReleaseProgram(p);
}

TEST_F(CompileLinkTest, LinkErrors) {
  cl_program caller = compiled(kCaller);
  // copy_one and twice are defined nowhere: a program comes back with the log.
  cl_int error = CL_SUCCESS;
  cl_program failed = clLinkProgram(context, 1, &device, "", 1, &caller, nullptr, nullptr, &error);
  EXPECT_EQ(error, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(status(failed), CL_BUILD_ERROR);
  EXPECT_NE(build_log(failed).find("'twice' is not supported: it is neither defined in the program"),
            std::string::npos)
      << build_log(failed);
  EXPECT_EQ(clCreateKernel(failed, "caller", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(failed);
  // Defined twice.
  cl_program callee = compiled(kCallee), again = compiled(kCallee);
  failed = link({caller, callee, again}, "", CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(failed, nullptr);
  EXPECT_NE(build_log(failed).find("multiply defined"), std::string::npos) << build_log(failed);
  clReleaseProgram(failed);

  // An input that is not a compiled object or library.
  cl_program not_compiled = source(kCallee);
  cl_program executable = program(kCallee);
  std::vector<cl_program> inputs = {caller, not_compiled};
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 2, inputs.data(), nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_OPERATION);
  inputs = {executable};
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 1, inputs.data(), nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_OPERATION);
  // Arguments.
  inputs = {caller, callee};
  EXPECT_EQ(clLinkProgram(context, 1, &device, "-no-such-option", 2, inputs.data(), nullptr, nullptr, &error),
            nullptr);
  EXPECT_EQ(error, CL_INVALID_LINKER_OPTIONS);
  EXPECT_EQ(clLinkProgram(context, 1, &device, "-enable-link-options", 2, inputs.data(), nullptr, nullptr, &error),
            nullptr);
  EXPECT_EQ(error, CL_INVALID_LINKER_OPTIONS);
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 0, inputs.data(), nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 2, nullptr, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clLinkProgram(context, 0, &device, "", 2, inputs.data(), nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  int data = 0;
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 2, inputs.data(), nullptr, &data, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  cl_program bad_inputs[] = {caller, reinterpret_cast<cl_program>(context)};
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 2, bad_inputs, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(context);
  EXPECT_EQ(clLinkProgram(context, 1, &not_a_device, "", 2, inputs.data(), nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
  EXPECT_EQ(clLinkProgram(nullptr, 1, &device, "", 2, inputs.data(), nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_CONTEXT);
  // No devices named: the context's.
  cl_program linked = clLinkProgram(context, 0, nullptr, nullptr, 2, inputs.data(), nullptr, nullptr, &error);
  EXPECT_EQ(error, CL_SUCCESS) << build_log(linked);
  for (cl_program p : {linked, caller, callee, again, not_compiled, executable}) clReleaseProgram(p);
}

struct Notified {
  int calls = 0;
  cl_program program = nullptr;
  cl_build_status status = CL_BUILD_IN_PROGRESS;
  cl_device_id device = nullptr;
};

void CL_CALLBACK notify(cl_program program, void* data) {
  auto* n = static_cast<Notified*>(data);
  ++n->calls;
  n->program = program;
  clGetProgramBuildInfo(program, n->device, CL_PROGRAM_BUILD_STATUS, sizeof n->status, &n->status, nullptr);
}

TEST_F(CompileLinkTest, CallbacksComeWhenDone) {
  cl_program caller = source(kCaller), callee = compiled(kCallee);
  Notified compiled_note{0, nullptr, CL_BUILD_IN_PROGRESS, device};
  ASSERT_EQ(clCompileProgram(caller, 1, &device, "-DFORTY=40", 0, nullptr, nullptr, notify, &compiled_note),
            CL_SUCCESS);
  EXPECT_EQ(compiled_note.calls, 1);
  EXPECT_EQ(compiled_note.program, caller);
  EXPECT_EQ(compiled_note.status, CL_BUILD_SUCCESS);
  Notified linked_note{0, nullptr, CL_BUILD_IN_PROGRESS, device};
  cl_program inputs[] = {caller, callee};
  cl_int error = CL_SUCCESS;
  cl_program linked = clLinkProgram(context, 1, &device, "", 2, inputs, notify, &linked_note, &error);
  EXPECT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(linked_note.calls, 1);
  EXPECT_EQ(linked_note.program, linked);
  EXPECT_EQ(linked_note.status, CL_BUILD_SUCCESS);
  for (cl_program p : {linked, caller, callee}) clReleaseProgram(p);
}

// Compiled objects, libraries and linked executables survive
// CL_PROGRAM_BINARIES and clCreateProgramWithBinary with their type.
TEST_F(CompileLinkTest, BinariesOfObjectsLibrariesAndLinkedExecutables) {
  cl_program caller = compiled(kCaller);
  cl_program object = from_binary(binary_of(caller));
  EXPECT_EQ(binary_type(object), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  cl_program callee = compiled(kCallee);
  cl_program library = link({callee}, "-create-library");
  cl_program library_again = from_binary(binary_of(library));
  EXPECT_EQ(binary_type(library_again), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program linked = link({object, library_again});
  ASSERT_NE(linked, nullptr);
  expect_caller_runs(linked);
  // The linked executable's binary builds and runs.
  cl_program executable = from_binary(binary_of(linked));
  EXPECT_EQ(binary_type(executable), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  ASSERT_EQ(clBuildProgram(executable, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(executable);
  expect_caller_runs(executable);
  // clBuildProgram of a compiled object's binary links it alone.
  cl_program callee_object = from_binary(binary_of(callee));
  ASSERT_EQ(clBuildProgram(callee_object, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << build_log(callee_object);
  EXPECT_EQ(binary_type(callee_object), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  cl_kernel k = kernel(callee_object, "copy_one");
  clReleaseKernel(k);
  for (cl_program p : {caller, object, callee, library, library_again, linked, executable, callee_object})
    clReleaseProgram(p);
}

// A NULL buffer cannot be a storage-buffer binding: where the module binds
// arguments as storage buffers (lavapipe), a kernel given one runs from the
// program compiled again with buffer addresses, here from the linked objects.
TEST_F(CompileLinkTest, ALinkedKernelTakesANullBuffer) {
  cl_program object = compiled(
      "kernel void maybe(global int* out, global int* p) { out[get_global_id(0)] = p == 0 ? 11 : p[0]; }\n");
  cl_program linked = link({object});
  cl_kernel k = kernel(linked, "maybe");
  cl_mem out = buffer(4 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof(cl_mem), nullptr), CL_SUCCESS);
  const size_t n = 4;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<int>(out, 4), std::vector<int>(4, 11));
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseProgram(linked);
  clReleaseProgram(object);
}

}  // namespace
