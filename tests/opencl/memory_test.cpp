// Buffers through the ICD: flags, sub-buffers, every command on them, maps,
// destructor callbacks, and the errors of each.
#include <cstring>
#include <numeric>

#include "cl_test.h"

using vkcl_test::ClTest;

namespace {

std::vector<unsigned char> iota_bytes(size_t n) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(i * 7 + 1);
  return v;
}

TEST_F(ClTest, BufferFlagsAndInfo) {
  cl_int error = CL_SUCCESS;
  auto host = iota_bytes(256);
  cl_mem copied = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, 256, host.data(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(copied, 256), host);
  cl_mem_flags flags = 0;
  EXPECT_EQ(clGetMemObjectInfo(copied, CL_MEM_FLAGS, sizeof flags, &flags, nullptr), CL_SUCCESS);
  EXPECT_EQ(flags, cl_mem_flags(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY));
  size_t size = 0;
  EXPECT_EQ(clGetMemObjectInfo(copied, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_SUCCESS);
  EXPECT_EQ(size, 256u);
  void* ptr = &error;
  EXPECT_EQ(clGetMemObjectInfo(copied, CL_MEM_HOST_PTR, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(ptr, nullptr);  // only USE_HOST_PTR reports it
  cl_mem_object_type type = 0;
  EXPECT_EQ(clGetMemObjectInfo(copied, CL_MEM_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_mem_object_type(CL_MEM_OBJECT_BUFFER));

  cl_mem used = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 256, host.data(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(clGetMemObjectInfo(used, CL_MEM_HOST_PTR, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(ptr, host.data());
  EXPECT_EQ(read<unsigned char>(used, 256), host);
  // Mapping a USE_HOST_PTR buffer gives the application's memory, with the buffer's contents.
  const unsigned char nine = 9;
  ASSERT_EQ(clEnqueueFillBuffer(queue, used, &nine, 1, 0, 256, 0, nullptr, nullptr), CL_SUCCESS);
  void* mapped = clEnqueueMapBuffer(queue, used, CL_TRUE, CL_MAP_READ, 16, 32, 0, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(mapped, host.data() + 16);
  EXPECT_EQ(host[16], 9);
  EXPECT_EQ(host[47], 9);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, used, mapped, 0, nullptr, nullptr), CL_SUCCESS);

  cl_mem allocated = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, 256, nullptr, &error);
  EXPECT_EQ(error, CL_SUCCESS);
  for (cl_mem m : {copied, used, allocated}) EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  clFinish(queue);
}

TEST_F(ClTest, BufferCreationErrors) {
  cl_int error = CL_SUCCESS;
  int host = 0;
  auto fails = [&](cl_mem_flags flags, size_t size, void* ptr, cl_int expected) {
    cl_mem m = clCreateBuffer(context, flags, size, ptr, &error);
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(error, expected) << std::hex << flags << " " << size;
  };
  fails(CL_MEM_READ_WRITE, 0, nullptr, CL_INVALID_BUFFER_SIZE);
  fails(CL_MEM_READ_WRITE, ~size_t(0), nullptr, CL_INVALID_BUFFER_SIZE);
  fails(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 4, nullptr, CL_INVALID_VALUE);
  fails(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 4, nullptr, CL_INVALID_VALUE);
  fails(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 4, &host, CL_INVALID_VALUE);
  fails(CL_MEM_COPY_HOST_PTR, 4, nullptr, CL_INVALID_HOST_PTR);
  fails(CL_MEM_READ_WRITE, 4, &host, CL_INVALID_HOST_PTR);
  fails(cl_mem_flags(1) << 40, 4, nullptr, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateBuffer(nullptr, 0, 4, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_CONTEXT);
  const cl_mem_properties unknown[] = {0x7777, 0, 0};
  EXPECT_EQ(clCreateBufferWithProperties(context, unknown, 0, 4, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROPERTY);
  EXPECT_EQ(clReleaseMemObject(nullptr), CL_INVALID_MEM_OBJECT);
}

TEST_F(ClTest, ReadWriteCopyFill) {
  cl_mem a = buffer(1024), b = buffer(1024);
  auto bytes = iota_bytes(1024);
  write(a, bytes);
  EXPECT_EQ(read<unsigned char>(a, 100, 17), std::vector<unsigned char>(bytes.begin() + 17, bytes.begin() + 117));
  ASSERT_EQ(clEnqueueCopyBuffer(queue, a, b, 10, 500, 300, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(b, 300, 500), std::vector<unsigned char>(bytes.begin() + 10, bytes.begin() + 310));
  // Fill with every pattern size, at an offset.
  for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
    std::vector<unsigned char> pattern(pattern_size);
    std::iota(pattern.begin(), pattern.end(), static_cast<unsigned char>(pattern_size));
    const size_t offset = pattern_size * 3, size = pattern_size * 4;
    write(b, std::vector<unsigned char>(1024, 0));
    ASSERT_EQ(clEnqueueFillBuffer(queue, b, pattern.data(), pattern_size, offset, size, 0, nullptr, nullptr), CL_SUCCESS);
    auto got = read<unsigned char>(b, 1024);
    for (size_t i = 0; i < 1024; ++i) {
      const bool inside = i >= offset && i < offset + size;
      ASSERT_EQ(got[i], inside ? pattern[(i - offset) % pattern_size] : 0) << pattern_size << " at " << i;
    }
  }
  const int x = 0;
  EXPECT_EQ(clEnqueueFillBuffer(queue, b, &x, 3, 0, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, b, &x, 4, 2, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, b, nullptr, 4, 0, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, a, a, 0, 100, 200, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, a, b, 1000, 0, 100, 0, nullptr, nullptr), CL_INVALID_VALUE);
  std::vector<char> host(2048);
  EXPECT_EQ(clEnqueueReadBuffer(queue, a, CL_TRUE, 1000, 100, host.data(), 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, 100, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, 2048, host.data(), 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(queue, nullptr, CL_TRUE, 0, 4, host.data(), 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

TEST_F(ClTest, HostAccessFlags) {
  cl_mem write_only = buffer(64, CL_MEM_HOST_WRITE_ONLY), read_only = buffer(64, CL_MEM_HOST_READ_ONLY),
         none = buffer(64, CL_MEM_HOST_NO_ACCESS);
  std::vector<char> host(64);
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clEnqueueReadBuffer(queue, write_only, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, write_only, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, read_only, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueReadBuffer(queue, read_only, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueMapBuffer(queue, none, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueMapBuffer(queue, read_only, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_OPERATION);
  for (cl_mem m : {write_only, read_only, none}) clReleaseMemObject(m);
}

TEST_F(ClTest, SubBuffers) {
  cl_uint align_bits = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, nullptr), CL_SUCCESS);
  const size_t align = align_bits / 8;
  cl_mem parent = buffer(align * 4, CL_MEM_READ_WRITE);
  auto bytes = iota_bytes(align * 4);
  write(parent, bytes);
  cl_int error = CL_SUCCESS;
  cl_buffer_region region{align, align * 2};
  cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(sub, 16, 4), std::vector<unsigned char>(bytes.begin() + align + 4, bytes.begin() + align + 20));
  size_t offset = 0;
  EXPECT_EQ(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, nullptr), CL_SUCCESS);
  EXPECT_EQ(offset, align);
  cl_mem associated = nullptr;
  EXPECT_EQ(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof associated, &associated, nullptr), CL_SUCCESS);
  EXPECT_EQ(associated, parent);
  // A write to the sub-buffer is a write to the parent.
  const unsigned char zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(queue, sub, &zero, 1, 0, align * 2, 0, nullptr, nullptr), CL_SUCCESS);
  auto after = read<unsigned char>(parent, align * 4);
  for (size_t i = 0; i < align * 4; ++i)
    ASSERT_EQ(after[i], (i >= align && i < align * 3) ? 0 : bytes[i]) << i;
  // Copies between overlapping parts of one allocation are refused.
  EXPECT_EQ(clEnqueueCopyBuffer(queue, parent, sub, align, 0, 64, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);

  cl_buffer_region misaligned{1, 16};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &error), nullptr);
  EXPECT_EQ(error, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  cl_buffer_region outside{align * 2, align * 4};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  cl_buffer_region empty{0, 0};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_MEM_OBJECT);
  cl_mem ro = buffer(align * 2, CL_MEM_READ_ONLY);
  cl_buffer_region first{0, align};
  EXPECT_EQ(clCreateSubBuffer(ro, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &first, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  // The parent lives while a sub-buffer does.
  EXPECT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(sub, 1), std::vector<unsigned char>{0});
  clReleaseMemObject(sub);
  clReleaseMemObject(ro);
}

TEST_F(ClTest, RectCommands) {
  // A 16 x 8 x 2 box of bytes in a buffer; copy a 5 x 3 x 2 region around.
  const size_t row = 16, slice = 16 * 8;
  cl_mem a = buffer(slice * 2), b = buffer(slice * 2);
  auto bytes = iota_bytes(slice * 2);
  write(a, bytes);
  write(b, std::vector<unsigned char>(slice * 2, 0));
  const size_t region[3] = {5, 3, 2}, src_origin[3] = {2, 1, 0}, dst_origin[3] = {7, 4, 0};
  ASSERT_EQ(clEnqueueCopyBufferRect(queue, a, b, src_origin, dst_origin, region, row, slice, row, slice, 0, nullptr,
                                    nullptr),
            CL_SUCCESS);
  auto got = read<unsigned char>(b, slice * 2);
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 8; ++y)
      for (size_t x = 0; x < 16; ++x) {
        const bool inside = x >= 7 && x < 12 && y >= 4 && y < 7;
        const unsigned char expected = inside ? bytes[z * slice + (y - 3) * row + (x - 5)] : 0;
        ASSERT_EQ(got[z * slice + y * row + x], expected) << x << "," << y << "," << z;
      }
  // Read the region into a tight host array, write it back elsewhere.
  std::vector<unsigned char> host(5 * 3 * 2);
  const size_t host_origin[3] = {0, 0, 0};
  ASSERT_EQ(clEnqueueReadBufferRect(queue, a, CL_TRUE, src_origin, host_origin, region, row, slice, 0, 0, host.data(),
                                    0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 3; ++y)
      for (size_t x = 0; x < 5; ++x)
        ASSERT_EQ(host[z * 15 + y * 5 + x], bytes[z * slice + (y + 1) * row + x + 2]);
  write(b, std::vector<unsigned char>(slice * 2, 0));
  ASSERT_EQ(clEnqueueWriteBufferRect(queue, b, CL_TRUE, dst_origin, host_origin, region, row, slice, 0, 0, host.data(),
                                     0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(b, slice * 2), got);
  const size_t zero_region[3] = {0, 1, 1};
  EXPECT_EQ(clEnqueueReadBufferRect(queue, a, CL_TRUE, src_origin, host_origin, zero_region, row, slice, 0, 0,
                                    host.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  const size_t too_far[3] = {14, 1, 1};
  EXPECT_EQ(clEnqueueReadBufferRect(queue, a, CL_TRUE, src_origin, host_origin, region, row, slice, 0, 0, host.data(),
                                    0, nullptr, nullptr),
            CL_SUCCESS);
  const size_t end_origin[3] = {0, 0, 2};
  EXPECT_EQ(clEnqueueReadBufferRect(queue, a, CL_TRUE, end_origin, host_origin, too_far, row, slice, 0, 0, host.data(),
                                    0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBufferRect(queue, a, a, src_origin, src_origin, region, row, slice, row, slice, 0, nullptr,
                                    nullptr),
            CL_MEM_COPY_OVERLAP);
  // Within one buffer, rectangles side by side: their byte spans interleave
  // but no byte is in both (the specification's check_copy_overlap; the
  // CTS's bufferreadwriterect copies so).
  write(a, bytes);
  const size_t left[3] = {0, 0, 0}, right[3] = {8, 0, 0}, half[3] = {8, 8, 2};
  ASSERT_EQ(clEnqueueCopyBufferRect(queue, a, a, left, right, half, row, slice, row, slice, 0, nullptr, nullptr),
            CL_SUCCESS);
  got = read<unsigned char>(a, slice * 2);
  for (size_t i = 0; i < slice * 2; ++i)
    ASSERT_EQ(got[i], bytes[i % row < 8 ? i : i - 8]) << i;
  const size_t shifted[3] = {4, 0, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(queue, a, a, left, shifted, half, row, slice, row, slice, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

TEST_F(ClTest, MapsReadWriteAndOverlap) {
  cl_mem b = buffer(4096);
  auto bytes = iota_bytes(4096);
  write(b, bytes);
  cl_int error = CL_SUCCESS;
  auto* whole = static_cast<unsigned char*>(
      clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 4096, 0, nullptr, nullptr, &error));
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(std::memcmp(whole, bytes.data(), 4096), 0);
  // An overlapping map sees the same memory.
  auto* part = static_cast<unsigned char*>(
      clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 100, 50, 0, nullptr, nullptr, &error));
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(part, whole + 100);
  cl_uint count = 0;
  EXPECT_EQ(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 2u);
  std::memset(whole + 1000, 0xab, 10);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, b, part, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, b, whole, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, b, whole, 0, nullptr, nullptr), CL_INVALID_VALUE);
  auto after = read<unsigned char>(b, 20, 995);
  for (size_t i = 0; i < 20; ++i) EXPECT_EQ(after[i], (i >= 5 && i < 15) ? 0xab : bytes[995 + i]);
  // WRITE_INVALIDATE_REGION: a non-blocking map, written, then unmapped.
  cl_event mapped = nullptr;
  auto* fresh = static_cast<unsigned char*>(clEnqueueMapBuffer(queue, b, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                                                 16, 0, nullptr, &mapped, &error));
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &mapped), CL_SUCCESS);
  std::memset(fresh, 5, 16);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, b, fresh, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(b, 16), std::vector<unsigned char>(16, 5));
  EXPECT_EQ(clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, nullptr,
                               nullptr, &error),
            nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 4000, 100, 0, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  clReleaseEvent(mapped);
  clReleaseMemObject(b);
}

TEST_F(ClTest, MigrateAndDestructorCallbacks) {
  cl_mem b = buffer(64);
  static std::vector<int> order;
  order.clear();
  auto callback = [](cl_mem, void* data) { order.push_back(*static_cast<int*>(data)); };
  int first = 1, second = 2;
  EXPECT_EQ(clSetMemObjectDestructorCallback(b, callback, &first), CL_SUCCESS);
  EXPECT_EQ(clSetMemObjectDestructorCallback(b, callback, &second), CL_SUCCESS);
  EXPECT_EQ(clSetMemObjectDestructorCallback(b, nullptr, nullptr), CL_INVALID_VALUE);
  cl_event e = nullptr;
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, &b, 0, 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, &b, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 1, &b, 0x100, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 0, &b, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  clReleaseEvent(e);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(b), CL_SUCCESS);
  EXPECT_EQ(order, (std::vector<int>{2, 1}));
}

}  // namespace
