// Programs and kernels through the ICD: building from source with options,
// logs with file:line:col, binaries, every kind of kernel argument, the
// info queries, and ND-ranges with offsets, NULL local sizes and
// non-uniform work-groups.
#include <cstring>
#include <numeric>
#include <regex>

#include "cl_test.h"

#include <CL/cl_ext.h>  // CL_DEVICE_HALF_FP_CONFIG

using vkcl_test::ClTest;

namespace {

const char* kSource = R"(
typedef struct { int a; float b; } pair;
__kernel void args(__global int* out, __global const int* in, __local int* scratch, int scale, pair p,
                   float4 v, __constant int* table, __global int* maybe) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = in[i] * scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = scratch[get_local_id(0)] + p.a + (int)p.b + (int)v.w + table[1] + (maybe == 0 ? 1000 : 0);
}
__kernel void ids(__global uint* out) {
  size_t i = (get_global_id(1) - get_global_offset(1)) * get_global_size(0) + (get_global_id(0) - get_global_offset(0));
  out[i] = (uint)(get_global_id(0) | (get_global_id(1) << 16)) ^ ((uint)get_local_size(0) << 28);
}
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(__global int* out) {
  out[get_global_id(0)] = get_local_size(0);
}
)";

TEST_F(ClTest, EveryKindOfArgument) {
  cl_program p = program(kSource);
  cl_kernel k = kernel(p, "args");
  const int n = 64;
  std::vector<int> input(n);
  std::iota(input.begin(), input.end(), 0);
  cl_mem out = buffer(n * sizeof(int)), in = buffer(n * sizeof(int)), table = buffer(4 * sizeof(int));
  write(in, input);
  write(table, std::vector<int>{0, 5, 0, 0});
  const int scale = 3;
  struct { int a; float b; } pair{10, 2.5f};
  const cl_float4 v = {{0, 0, 0, 7}};
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof(cl_mem), &in), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 2, 16 * sizeof(int), nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 3, sizeof scale, &scale), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 4, sizeof pair, &pair), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 5, sizeof v, &v), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 6, sizeof(cl_mem), &table), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 7, sizeof(cl_mem), nullptr), CL_SUCCESS);  // a NULL buffer
  const size_t global = n, local = 16;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  auto got = read<int>(out, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], i * 3 + 10 + 2 + 7 + 5 + 1000) << i;
  // Now a real buffer where the NULL was: the kernel sees it is not NULL.
  ASSERT_EQ(clSetKernelArg(k, 7, sizeof(cl_mem), &table), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<int>(out, 1)[0], 0 * 3 + 10 + 2 + 7 + 5);

  // Bad arguments.
  EXPECT_EQ(clSetKernelArg(k, 8, sizeof scale, &scale), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(k, 3, 2, &scale), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 3, sizeof scale, nullptr), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(k, 0, 4, &out), CL_INVALID_ARG_SIZE);
  cl_mem not_a_buffer = reinterpret_cast<cl_mem>(queue);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &not_a_buffer), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(k, 2, 0, nullptr), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 2, 16, &scale), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(nullptr, 0, 4, &scale), CL_INVALID_KERNEL);

  cl_kernel unset = kernel(p, "args");
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, unset, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  // A clone has the arguments.
  cl_int error = CL_SUCCESS;
  cl_kernel clone = clCloneKernel(k, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, clone, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  for (cl_kernel x : {k, unset, clone}) clReleaseKernel(x);
  for (cl_mem m : {out, in, table}) clReleaseMemObject(m);
  clReleaseProgram(p);
}

TEST_F(ClTest, NDRangesOffsetsAndNonUniformGroups) {
  cl_program p = program(kSource, "-cl-std=CL3.0");
  cl_kernel k = kernel(p, "ids");
  const size_t global[2] = {37, 5}, offset[2] = {3, 100}, local[2] = {8, 2};
  cl_mem out = buffer(37 * 5 * sizeof(cl_uint));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  for (const size_t* l : {local, static_cast<const size_t*>(nullptr)}) {
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 2, offset, global, l, 0, nullptr, nullptr), CL_SUCCESS);
    auto got = read<cl_uint>(out, 37 * 5);
    for (size_t y = 0; y < 5; ++y)
      for (size_t x = 0; x < 37; ++x) {
        const cl_uint v = got[y * 37 + x];
        ASSERT_EQ(v & 0x0fffffff, cl_uint((x + 3) | ((y + 100) << 16))) << x << "," << y;
        if (l) {
          // Non-uniform: the last group in x has 37 % 8 = 5 work-items.
          ASSERT_EQ(v >> 28, x >= 32 ? 5u : 8u) << x;
        }
      }
  }
  // A global size of 0 runs nothing and succeeds.
  const size_t none[2] = {0, 5};
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 2, nullptr, none, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 0, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 2, nullptr, nullptr, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  size_t max_items[3] = {};
  clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof max_items, max_items, nullptr);
  const size_t huge_local[2] = {max_items[0] + 1, 1};
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 2, nullptr, global, huge_local, 0, nullptr, nullptr),
            CL_INVALID_WORK_ITEM_SIZE);
  clReleaseKernel(k);
  clReleaseProgram(p);

  // OpenCL C 1.2 (the default) needs whole work-groups.
  cl_program old = program(kSource);
  cl_kernel k12 = kernel(old, "ids");
  ASSERT_EQ(clSetKernelArg(k12, 0, sizeof out, &out), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k12, 2, nullptr, global, local, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  // With no local size given, it picks one that divides the range.
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k12, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  auto got = read<cl_uint>(out, 37 * 5);
  // 37 is prime: one group of 37 in x (the kernel keeps 4 bits of it).
  EXPECT_EQ(got[36] >> 28, 37u & 0xf);
  // reqd_work_group_size.
  cl_kernel fixed = kernel(old, "fixed");
  ASSERT_EQ(clSetKernelArg(fixed, 0, sizeof out, &out), CL_SUCCESS);
  const size_t g = 32, wrong = 4;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, fixed, 1, nullptr, &g, &wrong, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, fixed, 1, nullptr, &g, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<int>(out, 1)[0], 8);
  size_t compile_size[3] = {};
  EXPECT_EQ(clGetKernelWorkGroupInfo(fixed, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile_size,
                                     compile_size, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(compile_size[0], 8u);
  EXPECT_EQ(compile_size[1], 1u);
  size_t wg = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(fixed, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr), CL_SUCCESS);
  EXPECT_EQ(wg, 8u);
  EXPECT_EQ(clEnqueueTask(queue, fixed, 0, nullptr, nullptr), CL_INVALID_WORK_GROUP_SIZE);
  clReleaseKernel(fixed);
  clReleaseKernel(k12);
  clReleaseProgram(old);
  clReleaseMemObject(out);
}

// Work-item functions past the third dimension (OpenCL C 6.15.1): sizes
// and group counts are 1, ids and offsets 0, with the index a constant
// (folded by the compiler) or a kernel argument (checked at run time). Past
// get_work_dim() but below 3 they describe a dimension of size 1.
TEST_F(ClTest, WorkItemFunctionsBeyondTheDimensions) {
  cl_program p = program(R"CL(
    kernel void dims(global ulong* out, uint d) {
      if (get_global_id(0) != 0) return;
      out[0] = get_global_size(d);   out[1] = get_local_size(d);    out[2] = get_enqueued_local_size(d);
      out[3] = get_num_groups(d);    out[4] = get_global_id(d);     out[5] = get_local_id(d);
      out[6] = get_group_id(d);      out[7] = get_global_offset(d);
      out[8] = get_global_size(3);   out[9] = get_global_id(5);     out[10] = get_num_groups(1);
    })CL", "-cl-std=CL3.0");
  cl_kernel k = kernel(p, "dims");
  cl_mem out = buffer(11 * sizeof(cl_ulong));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  const size_t global = 64, local = 16, offset = 0;
  for (cl_uint d : {1u, 3u, 4u, 1000u}) {
    ASSERT_EQ(clSetKernelArg(k, 1, sizeof d, &d), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, &offset, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    const std::vector<cl_ulong> got = read<cl_ulong>(out, 11);
    const std::vector<cl_ulong> expected = {1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1};
    EXPECT_EQ(got, expected) << "dimension index " << d;
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_F(ClTest, BuildLogsOptionsAndStatus) {
  const char* bad = "__kernel void k(__global int* x) {\n  x[0] = undefined_thing;\n}\n";
  cl_int error = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context, 1, &bad, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_build_status status = 0;
  EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  EXPECT_EQ(status, CL_BUILD_NONE);
  EXPECT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  EXPECT_EQ(status, CL_BUILD_ERROR);
  const std::string log = build_log(p);
  EXPECT_TRUE(std::regex_search(log, std::regex(R"(program\.cl:2:10: error: use of undeclared identifier)"))) << log;
  EXPECT_EQ(clCreateKernel(p, "k", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROGRAM_EXECUTABLE);
  size_t n = 0;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr), CL_INVALID_PROGRAM_EXECUTABLE);

  EXPECT_EQ(clBuildProgram(p, 1, &device, "-cl-no-such-option", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
  EXPECT_EQ(clBuildProgram(p, 1, &device, "-cl-std=CL2.0", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
  // -D (both spellings) fixes it; every standard option is taken.
  EXPECT_EQ(clBuildProgram(p, 1, &device,
                           "-D undefined_thing=1 -DUNUSED -I /tmp -cl-mad-enable -cl-fast-relaxed-math "
                           "-cl-denorms-are-zero -cl-kernel-arg-info -w -cl-std=CL3.0 -cl-opt-disable "
                           "-cl-single-precision-constant -cl-no-signed-zeros -cl-finite-math-only "
                           "-cl-unsafe-math-optimizations -cl-uniform-work-group-size -cl-no-subgroup-ifp -g",
                           nullptr, nullptr),
            CL_SUCCESS)
      << build_log(p);
  EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  EXPECT_EQ(status, CL_BUILD_SUCCESS);
  size_t size = 0;
  EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_GT(size, 20u);
  // -Werror turns a warning into a failure; -w silences it.
  const char* warns = "#warning careful\n__kernel void k(__global int* x) { x[0] = 1; }";
  cl_program w = clCreateProgramWithSource(context, 1, &warns, nullptr, &error);
  EXPECT_EQ(clBuildProgram(w, 1, &device, "-Wunused-variable", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
  EXPECT_EQ(clBuildProgram(w, 1, &device, "-Werror", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(build_log(w).find("careful"), std::string::npos) << build_log(w);
  EXPECT_EQ(clBuildProgram(w, 1, &device, "-w -Werror", nullptr, nullptr), CL_SUCCESS) << build_log(w);
  // Kernels pin the build.
  cl_kernel k = kernel(p, "k");
  EXPECT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  clReleaseProgram(w);
  clReleaseProgram(p);
}

TEST_F(ClTest, ProgramInfoAndBinaries) {
  cl_program p = program(kSource);
  size_t n = 0;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr), CL_SUCCESS);
  EXPECT_EQ(n, 3u);
  char names[64] = {};
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::string(names), "args;ids;fixed");
  size_t source_size = 0;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, nullptr, &source_size), CL_SUCCESS);
  EXPECT_EQ(source_size, std::strlen(kSource) + 1);
  cl_kernel all[3] = {};
  cl_uint count = 0;
  EXPECT_EQ(clCreateKernelsInProgram(p, 3, all, &count), CL_SUCCESS);
  EXPECT_EQ(count, 3u);
  char name[16] = {};
  EXPECT_EQ(clGetKernelInfo(all[1], CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::string(name), "ids");
  cl_uint args = 0;
  EXPECT_EQ(clGetKernelInfo(all[0], CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr), CL_SUCCESS);
  EXPECT_EQ(args, 8u);
  for (cl_kernel k : all) clReleaseKernel(k);

  // The binary builds again, without the source, and runs.
  size_t binary_size = 0;
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof binary_size, &binary_size, nullptr), CL_SUCCESS);
  ASSERT_GT(binary_size, 100u);
  std::vector<unsigned char> binary(binary_size);
  unsigned char* binaries[] = {binary.data()};
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof binaries, binaries, nullptr), CL_SUCCESS);
  const unsigned char* in[] = {binary.data()};
  cl_int status = 1, error = CL_SUCCESS;
  cl_program again = clCreateProgramWithBinary(context, 1, &device, &binary_size, in, &status, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(status, CL_SUCCESS);
  cl_program_binary_type type = 0;
  EXPECT_EQ(clGetProgramBuildInfo(again, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  ASSERT_EQ(clBuildProgram(again, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = kernel(again, "fixed");
  cl_mem out = buffer(8 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  const size_t g = 8;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<int>(out, 8), std::vector<int>(8, 8));
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseProgram(again);

  const unsigned char junk[] = {1, 2, 3, 4};
  const unsigned char* junk_list[] = {junk};
  const size_t junk_size = sizeof junk;
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &device, &junk_size, junk_list, &status, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_BINARY);
  EXPECT_EQ(status, CL_INVALID_BINARY);
  EXPECT_EQ(clCreateKernel(p, "nope", &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_KERNEL_NAME);
  EXPECT_EQ(clCreateKernel(p, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  clReleaseProgram(p);
}

TEST_F(ClTest, KernelArgInfoAndWorkGroupInfo) {
  cl_program p = program(kSource, "-cl-kernel-arg-info");
  cl_kernel k = kernel(p, "args");
  cl_kernel_arg_address_qualifier q = 0;
  EXPECT_EQ(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr), CL_SUCCESS);
  EXPECT_EQ(q, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));
  EXPECT_EQ(clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr), CL_SUCCESS);
  EXPECT_EQ(q, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_CONSTANT));
  char name[16] = {};
  EXPECT_EQ(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::string(name), "scale");
  EXPECT_EQ(clGetKernelArgInfo(k, 9, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr), CL_INVALID_ARG_INDEX);
  // Types as OpenCL C spells them, and their qualifiers.
  const char* types[] = {"int*", "int*", "int*", "int", "pair", "float4", "int*", "int*"};
  for (cl_uint i = 0; i < 8; ++i) {
    char type[32] = {};
    EXPECT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr), CL_SUCCESS);
    EXPECT_EQ(std::string(type), types[i]) << i;
    cl_kernel_arg_access_qualifier access = 0;
    EXPECT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, nullptr), CL_SUCCESS);
    EXPECT_EQ(access, cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_NONE));
  }
  cl_kernel_arg_type_qualifier tq = 1234;
  EXPECT_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, nullptr), CL_SUCCESS);
  EXPECT_EQ(tq, cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_NONE));
  EXPECT_EQ(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, nullptr), CL_SUCCESS);
  EXPECT_EQ(tq, cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_CONST));
  EXPECT_EQ(clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, nullptr), CL_SUCCESS);
  EXPECT_EQ(tq, cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_CONST));  // a __constant pointer
  size_t type_size = 0;
  EXPECT_EQ(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_TYPE_NAME, 0, nullptr, &type_size), CL_SUCCESS);
  EXPECT_EQ(type_size, 5u);
  EXPECT_EQ(clGetKernelArgInfo(k, 0, 0x7777, sizeof tq, &tq, nullptr), CL_INVALID_VALUE);
  size_t multiple = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                     &multiple, nullptr),
            CL_SUCCESS);
  EXPECT_GE(multiple, 1u);
  ASSERT_EQ(clSetKernelArg(k, 2, 100, nullptr), CL_SUCCESS);
  cl_ulong local = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, nullptr), CL_SUCCESS);
  EXPECT_GE(local, 100u);
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof multiple, &multiple, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof multiple, &multiple, nullptr),
            CL_INVALID_VALUE);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// Without -cl-kernel-arg-info there is no argument information, as the
// specification allows; kernels from a binary have none either.
TEST_F(ClTest, KernelArgInfoNeedsTheOption) {
  cl_program p = program(kSource);
  cl_kernel k = kernel(p, "args");
  char text[16] = {};
  cl_kernel_arg_address_qualifier q = 0;
  EXPECT_EQ(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof text, text, nullptr), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof text, text, nullptr),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clGetKernelArgInfo(k, 9, CL_KERNEL_ARG_NAME, sizeof text, text, nullptr), CL_INVALID_ARG_INDEX);
  clReleaseKernel(k);
  cl_program with_info = program(kSource, "-cl-kernel-arg-info");
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(with_info, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char* out[] = {binary.data()};
  ASSERT_EQ(clGetProgramInfo(with_info, CL_PROGRAM_BINARIES, sizeof out, out, nullptr), CL_SUCCESS);
  const unsigned char* in[] = {binary.data()};
  cl_int status = 1, error = 1;
  cl_program again = clCreateProgramWithBinary(context, 1, &device, &size, in, &status, &error);
  ASSERT_EQ(clBuildProgram(again, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  k = kernel(again, "args");
  EXPECT_EQ(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof text, text, nullptr), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(k);
  clReleaseProgram(again);
  clReleaseProgram(with_info);
  clReleaseProgram(p);
}

// CL_KERNEL_ATTRIBUTES: the attributes the source gave, in OpenCL C's
// spelling; empty for a kernel without any, and for one from a binary.
TEST_F(ClTest, KernelAttributes) {
  cl_program p = program(
      "__attribute__((reqd_work_group_size(4, 2, 1))) __attribute__((vec_type_hint(float4)))\n"
      "__attribute__((work_group_size_hint(8, 1, 1))) kernel void hinted(global int* x) { x[0] = 1; }\n"
      "kernel void plain(global int* x) { x[0] = 1; }\n");
  auto attributes = [&](cl_kernel k) {
    size_t size = 0;
    EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, nullptr, &size), CL_SUCCESS);
    std::string text(size, '\0');
    EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, size, text.data(), nullptr), CL_SUCCESS);
    return std::string(text.c_str());
  };
  cl_kernel hinted = kernel(p, "hinted"), plain = kernel(p, "plain");
  EXPECT_EQ(attributes(hinted), "reqd_work_group_size(4,2,1) work_group_size_hint(8,1,1) vec_type_hint(float4)");
  EXPECT_EQ(attributes(plain), "");
  clReleaseKernel(hinted);
  clReleaseKernel(plain);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char* out[] = {binary.data()};
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof out, out, nullptr), CL_SUCCESS);
  const unsigned char* in[] = {binary.data()};
  cl_int status = 1, error = 1;
  cl_program again = clCreateProgramWithBinary(context, 1, &device, &size, in, &status, &error);
  ASSERT_EQ(clBuildProgram(again, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  hinted = kernel(again, "hinted");
  EXPECT_EQ(attributes(hinted), "");
  clReleaseKernel(hinted);
  clReleaseProgram(again);
  clReleaseProgram(p);
}

}  // namespace

namespace {

// What CL_DEVICE_SINGLE_FP_CONFIG and _DOUBLE_FP_CONFIG claim holds: where
// they say CL_FP_DENORM, subnormal results come out exact, not flushed. On
// lavapipe the double claim rests on this test (api/opencl/device.cpp).
// A compile for the device defines the macro of an extension or OpenCL C
// feature exactly where the device reports it (CL_DEVICE_EXTENSIONS,
// CL_DEVICE_OPENCL_C_FEATURES), in OpenCL C 1.2 and 3.0.
TEST_F(ClTest, ExtensionAndFeatureMacrosAgreeWithTheDevice) {
  const std::vector<std::string> names = {
      "cl_khr_fp16", "cl_khr_fp64", "cl_khr_int64_base_atomics", "cl_khr_global_int32_base_atomics",
      "cl_khr_subgroups", "cl_khr_3d_image_writes", "cl_khr_depth_images", "cl_intel_subgroups",
      "__opencl_c_fp64", "__opencl_c_int64", "__opencl_c_subgroups", "__opencl_c_generic_address_space",
      "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_all_devices",
      "__opencl_c_program_scope_global_variables", "__opencl_c_images", "__opencl_c_pipes",
      "__opencl_c_work_group_collective_functions", "__IMAGE_SUPPORT__"};
  std::string source = "kernel void macros(global int* out) {\n";
  for (size_t i = 0; i < names.size(); ++i)
    source += "#ifdef " + names[i] + "\n  out[" + std::to_string(i) + "] = 1;\n#else\n  out[" + std::to_string(i) +
              "] = 0;\n#endif\n";
  source += "}\n";
  size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
  std::string extensions(size, '\0');
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr);
  clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size);
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr);
  auto reported = [&](const std::string& name, bool with_features) {
    if (name == "__IMAGE_SUPPORT__") return false;  // CL_DEVICE_IMAGE_SUPPORT is false
    if (name.starts_with("__opencl_c_")) {
      return std::any_of(features.begin(), features.end(), [&](const cl_name_version& f) { return name == f.name; });
    }
    return std::regex_search(extensions, std::regex("(^| )" + name + "( |$)"));
  };
  // __OPENCL_VERSION__ is the device's version (clang leaves it undefined).
  source += "kernel void version(global int* out) { out[0] = __OPENCL_VERSION__; }\n";
  cl_mem out = buffer(names.size() * sizeof(int));
  for (const char* std_option : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    cl_program p = program(source, std_option);
    cl_kernel k = kernel(p, "macros");
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    const size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    const std::vector<int> defined = read<int>(out, names.size());
    const bool cl3 = std::strcmp(std_option, "-cl-std=CL3.0") == 0;
    for (size_t i = 0; i < names.size(); ++i) {
      // OpenCL C 1.2 has no feature macros (clang may define them there),
      // and clang offers cl_khr_subgroups from OpenCL C 2.0 on.
      if (!cl3 && (names[i].starts_with("__opencl_c_") || names[i] == "cl_khr_subgroups")) continue;
      EXPECT_EQ(defined[i] == 1, reported(names[i], cl3)) << names[i] << " with " << std_option;
    }
    cl_kernel v = kernel(p, "version");
    ASSERT_EQ(clSetKernelArg(v, 0, sizeof out, &out), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, v, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read<int>(out, 1)[0], 300) << std_option;
    clReleaseKernel(v);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  clReleaseMemObject(out);
}

TEST_F(ClTest, FloatingPointConfigHolds) {
  cl_device_fp_config single = 0, twice = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof single, &single, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof twice, &twice, nullptr), CL_SUCCESS);
  if (twice) {
    // OpenCL's minimum for a device with doubles.
    const cl_device_fp_config needed = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
    EXPECT_EQ(twice & needed, needed);
    cl_program p = program(
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void k(__global double* d) { d[1] = d[0] * 0.5; d[2] = d[0] + d[0]; d[3] = fma(d[0], 0.25, d[0]); }");
    cl_kernel k = kernel(p, "k");
    const double tiny = 1e-310;  // subnormal
    cl_mem b = buffer(4 * sizeof(double));
    write(b, std::vector<double>{tiny, 0, 0, 0});
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    const size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read<double>(b, 4), (std::vector<double>{tiny, tiny * 0.5, tiny + tiny, tiny * 1.25}));
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  if (single & CL_FP_DENORM) {
    cl_program p = program("__kernel void k(__global float* f) { f[1] = f[0] * 0.5f; }");
    cl_kernel k = kernel(p, "k");
    const float tiny = 1e-39f;
    cl_mem b = buffer(2 * sizeof(float));
    write(b, std::vector<float>{tiny, 0});
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    const size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read<float>(b, 2)[1], tiny * 0.5f);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

// cl_khr_fp16 in CL_DEVICE_EXTENSIONS, CL_DEVICE_HALF_FP_CONFIG and what a
// half kernel computes agree: with the extension, a kernel using half
// arithmetic and half builtins builds, and its results are the correctly
// rounded ones (x / y within 1 ulp, builtins/LOWERING.md), subnormal halves
// kept where the config says CL_FP_DENORM; without it, the cl_khr_fp16 macro
// is undefined and the same kernel fails to build with a log, not a crash.
TEST_F(ClTest, HalfConfigAndHalfKernelAgree) {
  size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
  std::string extensions(size, '\0');
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr);
  const bool fp16 = std::regex_search(extensions, std::regex("(^| )cl_khr_fp16( |$)"));
  cl_device_fp_config config = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_HALF_FP_CONFIG, sizeof config, &config, nullptr), CL_SUCCESS);
  EXPECT_EQ(config != 0, fp16);
  const std::string source =
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "__kernel void k(__global const half* in, __global half* out, half scale) {\n"
      "  const half a = in[0], b = in[1], c = in[2], tiny = in[3];\n"
      "  out[0] = a / b;\n"          // 1/3
      "  out[1] = fma(a, b, c);\n"   // correctly rounded
      "  out[2] = sqrt(b);\n"
      "  out[3] = sin(a);\n"
      "  out[4] = tiny * (half)0.5f;\n"  // a subnormal result
      "  out[5] = degrees(a);\n"
      "  out[6] = (half)dot((half4)(a, b, c, 0), (half4)(1, 2, 3, 4));\n"
      "  out[7] = fdim(b, a);\n"
      "  out[8] = a * scale;\n"  // a half argument by value
      "}\n";
  if (!fp16) {
    cl_int error = CL_SUCCESS;
    const char* text = source.c_str();
    cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
    EXPECT_NE(build_log(p), "");
    clReleaseProgram(p);
    return;
  }
  EXPECT_TRUE(config & CL_FP_ROUND_TO_NEAREST);
  EXPECT_TRUE(config & CL_FP_FMA);
  cl_program p = program(source);
  cl_kernel k = kernel(p, "k");
  // 1, 3, 2^-10 (fma's exact 3 + 2^-10 is a tie between halves: to even, 3), 2^-14.
  const std::vector<uint16_t> in = {0x3c00, 0x4200, 0x1400, 0x0400};
  cl_mem input = buffer(in.size() * 2), output = buffer(9 * 2);
  const cl_half scale = 0xc100;  // -2.5
  write(input, in);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof input, &input), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof output, &output), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 2, sizeof scale, &scale), CL_SUCCESS);
  const size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  const std::vector<uint16_t> got = read<uint16_t>(output, 9);
  EXPECT_EQ(got[0], 0x3555);  // 1/3 rounded to nearest
  EXPECT_EQ(got[1], 0x4200);  // 3 + 2^-10: the tie goes to even
  EXPECT_EQ(got[2], 0x3eee);  // sqrt(3) = 1.7320508: 0x1.bb8p0
  EXPECT_EQ(got[3], 0x3abb);  // sin(1) = 0.84147098: 0x1.aecp-1
  if (config & CL_FP_DENORM) EXPECT_EQ(got[4], 0x0200);  // 2^-15, kept
  else EXPECT_TRUE(got[4] == 0x0200 || got[4] == 0x0000) << got[4];
  EXPECT_EQ(got[5], 0x5329);  // 57.29578: 0x1.ca4p5
  EXPECT_EQ(got[6], 0x4701);  // 1 + 6 + 3 * 2^-10 = 7.0029: 0x1.c04p2
  EXPECT_EQ(got[7], 0x4000);  // 3 - 1
  EXPECT_EQ(got[8], 0xc100);  // 1 * -2.5
  clReleaseMemObject(input);
  clReleaseMemObject(output);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// Kernels of one program whose __local arrays each take half the device's
// local memory, three times more than it has together. Each must run: NVIDIA's
// driver reserved every __local variable of a module for each of its kernels
// and lost the device (host/one_kernel_module.h; CLBlast's GEMM on the H100).
TEST_F(ClTest, KernelsThatTogetherPassTheLocalMemoryRunAlone) {
  cl_ulong local_bytes = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, nullptr), CL_SUCCESS);
  const size_t n = size_t(local_bytes / 2 / sizeof(cl_uint));
  std::string source;
  for (int k = 0; k < 3; ++k)
    source += "kernel void sum" + std::to_string(k) + R"((global uint* out) {
  local uint t[N];
  for (uint i = get_local_id(0); i < N; i += get_local_size(0)) t[i] = i + )" +
              std::to_string(k) + R"(;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = 0;
  for (uint i = get_local_id(0); i < N; i += get_local_size(0)) s += t[N - 1 - i];
  out[get_global_id(0)] = s;
}
)";
  const std::string options = "-DN=" + std::to_string(n);
  cl_program p = program(source, options.c_str());
  cl_mem out = buffer(256 * sizeof(cl_uint));
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE("kernel sum" + std::to_string(k));
    cl_kernel sum = kernel(p, ("sum" + std::to_string(k)).c_str());
    ASSERT_EQ(clSetKernelArg(sum, 0, sizeof out, &out), CL_SUCCESS);
    const size_t global = 256, local = 64;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, sum, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    const std::vector<cl_uint> got = read<cl_uint>(out, 256);
    for (size_t item = 0; item < 256; item += 37) {
      cl_uint expected = 0;  // the work-item's share of t[N-1-i] = N-1-i+k, i = lid, lid+64, ...
      for (size_t i = item % local; i < n; i += local) expected += cl_uint(n - 1 - i + k);
      EXPECT_EQ(got[item], expected) << "work-item " << item;
    }
    clReleaseKernel(sum);
  }
  clReleaseMemObject(out);
  clReleaseProgram(p);
}

}  // namespace
