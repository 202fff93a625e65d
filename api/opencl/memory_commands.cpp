// The commands on buffers: read, write, copy (and their *Rect forms), fill,
// map, unmap and migrate. Each is checked here, on the application's
// thread, with the specification's error codes, and runs on its queue's
// worker (queue.h).
#include <algorithm>
#include <cstring>

#include "entry_points.h"
#include "errors.h"
#include "memory.h"
#include "queue.h"

namespace vkcl::opencl {
namespace {

Memory& buffer_of(Queue& queue, cl_mem mem) {
  Memory& m = get<Memory>(mem, CL_INVALID_MEM_OBJECT);
  require(&m.context() == &queue.context(), CL_INVALID_CONTEXT, "a buffer of another context");
  return m;
}

void require_inside(const Memory& m, size_t offset, size_t size) {
  require(size != 0 && offset <= m.size() && size <= m.size() - offset, CL_INVALID_VALUE,
          "the range is outside the buffer (or empty)");
}

void require_host_reads(const Memory& m) {
  require(!(m.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
          "the buffer was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
}
void require_host_writes(const Memory& m) {
  require(!(m.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
          "the buffer was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");
}

// The device's allocation of `m`, current, for the duration of a command's
// step that holds the device's lock.
struct Access {
  Access(Execution& e, Memory& m) : memory(m), device(e.device) { m.make_current(device); }
  Memory& memory;
  ContextDevice& device;
  void read(std::span<std::byte> to, size_t offset) {
    std::lock_guard lock(device.lock);
    memory.allocation(device).read(to, memory.offset_in_allocation() + offset);
  }
  void write(std::span<const std::byte> from, size_t offset) {
    {
      std::lock_guard lock(device.lock);
      memory.allocation(device).write(from, memory.offset_in_allocation() + offset);
    }
    memory.written_on(device);
  }
};

cl_int enqueue(Queue& queue, cl_command_type type, cl_uint num_events, const cl_event* wait_list, cl_event* event,
               cl_bool blocking, Work work) {
  auto waits = queue.wait_list(num_events, wait_list);
  Ref<Event> e = queue.enqueue(type, std::move(waits), std::move(work));
  cl_int waited = wait_if_blocking(e, blocking);
  hand_out(std::move(e), event);
  return waited;
}

// A rectangle of a buffer or host memory: byte offsets of its rows.
struct Rect {
  size_t origin;  // origin[2] * slice + origin[1] * row + origin[0]
  size_t row, slice;
};

// Whether two rectangles of one buffer with the same pitches, starting at
// byte offsets `a` and `b`, share a byte: the specification's
// check_copy_overlap (OpenCL 3.0, appendix "Checking for Memory Copy
// Overlap"). Their spans may overlap where the rows or slices of one fall
// in the gaps between those of the other.
bool rectangles_overlap(size_t a, size_t b, const size_t* region, size_t row, size_t slice) {
  const size_t slice_size = (region[1] - 1) * row + region[0];
  const size_t block_size = (region[2] - 1) * slice + slice_size;
  if (b + block_size <= a || a + block_size <= b) return false;
  const size_t a_dx = a % row, b_dx = b % row;
  if ((b_dx >= a_dx + region[0] && b_dx + region[0] <= a_dx + row) ||
      (a_dx >= b_dx + region[0] && a_dx + region[0] <= b_dx + row))
    return false;
  const size_t a_dy = a % slice, b_dy = b % slice;
  if ((b_dy >= a_dy + slice_size && b_dy + slice_size <= a_dy + slice) ||
      (a_dy >= b_dy + slice_size && a_dy + slice_size <= b_dy + slice))
    return false;
  return true;
}

// Checks a *Rect call's region and pitches (0 pitches become the tight
// ones), returning the two sides' layouts.
std::pair<Rect, Rect> rects(const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                            size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                            size_t host_slice_pitch) {
  require(buffer_origin && host_origin && region, CL_INVALID_VALUE, "an origin or the region is NULL");
  require(region[0] && region[1] && region[2], CL_INVALID_VALUE, "a region dimension is 0");
  auto side = [&](const size_t* origin, size_t row, size_t slice) {
    if (row == 0) row = region[0];
    if (slice == 0) slice = region[1] * row;
    require(row >= region[0], CL_INVALID_VALUE, "a row pitch is less than region[0]");
    require(slice >= region[1] * row && slice % row == 0, CL_INVALID_VALUE,
            "a slice pitch is less than region[1] * row pitch or not a multiple of it");
    return Rect{origin[2] * slice + origin[1] * row + origin[0], row, slice};
  };
  return {side(buffer_origin, buffer_row_pitch, buffer_slice_pitch), side(host_origin, host_row_pitch, host_slice_pitch)};
}

// The last byte a rectangle touches, plus one.
size_t rect_end(const Rect& r, const size_t* region) {
  return r.origin + (region[2] - 1) * r.slice + (region[1] - 1) * r.row + region[0];
}

// Calls `row(from_offset, to_offset)` for each row of the region.
template <typename Row>
void for_each_row(const Rect& from, const Rect& to, const size_t* region, Row row) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      row(from.origin + z * from.slice + y * from.row, to.origin + z * to.slice + y * to.row);
}

// Reads the part of `m` a rectangle covers, [r.origin, end), into host memory.
std::vector<std::byte> read_span(Access& access, const Rect& r, const size_t* region) {
  std::vector<std::byte> bytes(rect_end(r, region) - r.origin);
  access.read(bytes, r.origin);
  return bytes;
}

// What clEnqueueReadBufferRect and clEnqueueWriteBufferRect check alike:
// the buffer, the host pointer, the region and pitches of both sides.
struct HostRect {
  Ref<Memory> memory;
  Rect buffer, host;
  std::array<size_t, 3> region;
};
HostRect host_rect(Queue& q, cl_mem buffer, const void* ptr, const size_t* buffer_origin, const size_t* host_origin,
                   const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                   size_t host_slice_pitch) {
  Memory& m = buffer_of(q, buffer);
  require(ptr, CL_INVALID_VALUE, "ptr is NULL");
  auto [b, h] = rects(buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                      host_slice_pitch);
  require(rect_end(b, region) <= m.size(), CL_INVALID_VALUE, "the region is outside the buffer");
  return {Ref<Memory>(&m), b, h, {region[0], region[1], region[2]}};
}

}  // namespace

cl_int CL_API_CALL enqueue_read_buffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                       size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Memory& m = buffer_of(q, buffer);
    require(ptr, CL_INVALID_VALUE, "ptr is NULL");
    require_inside(m, offset, size);
    require_host_reads(m);
    Ref<Memory> keep(&m);
    return enqueue(q, CL_COMMAND_READ_BUFFER, num_events_in_wait_list, event_wait_list, event, blocking_read,
                   [keep, offset, size, ptr](Execution& e) {
                     Access(e, *keep).read(std::span(static_cast<std::byte*>(ptr), size), offset);
                   });
  });
}

cl_int CL_API_CALL enqueue_write_buffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size, const void* ptr, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Memory& m = buffer_of(q, buffer);
    require(ptr, CL_INVALID_VALUE, "ptr is NULL");
    require_inside(m, offset, size);
    require_host_writes(m);
    Ref<Memory> keep(&m);
    // A non-blocking write may read `ptr` until the command completes.
    return enqueue(q, CL_COMMAND_WRITE_BUFFER, num_events_in_wait_list, event_wait_list, event, blocking_write,
                   [keep, offset, size, ptr](Execution& e) {
                     Access(e, *keep).write(std::span(static_cast<const std::byte*>(ptr), size), offset);
                   });
  });
}

cl_int CL_API_CALL enqueue_copy_buffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                       cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Memory& from = buffer_of(q, src_buffer);
    Memory& to = buffer_of(q, dst_buffer);
    require_inside(from, src_offset, size);
    require_inside(to, dst_offset, size);
    require(!from.overlaps(to, src_offset, dst_offset, size), CL_MEM_COPY_OVERLAP, "the ranges overlap");
    Ref<Memory> keep_from(&from), keep_to(&to);
    return enqueue(q, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list, event_wait_list, event, false,
                   [keep_from, keep_to, src_offset, dst_offset, size](Execution& e) {
                     keep_from->make_current(e.device);
                     keep_to->make_current(e.device);
                     {
                       std::lock_guard lock(e.device.lock);
                       vkcl::Buffer::copy(keep_from->allocation(e.device), keep_to->allocation(e.device),
                                          keep_from->offset_in_allocation() + src_offset,
                                          keep_to->offset_in_allocation() + dst_offset, size);
                     }
                     keep_to->written_on(e.device);
                   });
  });
}

cl_int CL_API_CALL enqueue_fill_buffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                       cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Memory& m = buffer_of(q, buffer);
    require(pattern, CL_INVALID_VALUE, "pattern is NULL");
    require(pattern_size && pattern_size <= 128 && (pattern_size & (pattern_size - 1)) == 0, CL_INVALID_VALUE,
            "pattern_size is not 1, 2, 4, ..., 128");
    require(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE,
            "offset or size is not a multiple of pattern_size");
    require_inside(m, offset, size);
    Ref<Memory> keep(&m);
    std::vector<std::byte> bytes(static_cast<const std::byte*>(pattern),
                                 static_cast<const std::byte*>(pattern) + pattern_size);
    return enqueue(q, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list, event_wait_list, event, false,
                   [keep, bytes, offset, size](Execution& e) {
                     keep->make_current(e.device);
                     {
                       std::lock_guard lock(e.device.lock);
                       keep->allocation(e.device).fill_pattern(bytes, keep->offset_in_allocation() + offset, size);
                     }
                     keep->written_on(e.device);
                   });
  });
}

cl_int CL_API_CALL enqueue_read_buffer_rect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                            const size_t* buffer_origin, const size_t* host_origin,
                                            const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
                                            cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                            cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    auto [keep, b, h, r] = host_rect(q, buffer, ptr, buffer_origin, host_origin, region, buffer_row_pitch,
                                     buffer_slice_pitch, host_row_pitch, host_slice_pitch);
    require_host_reads(*keep);
    return enqueue(q, CL_COMMAND_READ_BUFFER_RECT, num_events_in_wait_list, event_wait_list, event, blocking_read,
                   [keep, b, h, r, ptr](Execution& e) {
                     Access access(e, *keep);
                     auto bytes = read_span(access, b, r.data());
                     auto* host = static_cast<std::byte*>(ptr);
                     for_each_row(b, h, r.data(), [&](size_t from, size_t to) {
                       std::memcpy(host + to, bytes.data() + (from - b.origin), r[0]);
                     });
                   });
  });
}

cl_int CL_API_CALL enqueue_write_buffer_rect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                             const size_t* buffer_origin, const size_t* host_origin,
                                             const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                             size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
                                             cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                             cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    auto [keep, b, h, r] = host_rect(q, buffer, ptr, buffer_origin, host_origin, region, buffer_row_pitch,
                                     buffer_slice_pitch, host_row_pitch, host_slice_pitch);
    require_host_writes(*keep);
    return enqueue(q, CL_COMMAND_WRITE_BUFFER_RECT, num_events_in_wait_list, event_wait_list, event, blocking_write,
                   [keep, b, h, r, ptr](Execution& e) {
                     // Row by row: the bytes between rows are not the command's to write.
                     Access access(e, *keep);
                     const auto* host = static_cast<const std::byte*>(ptr);
                     for_each_row(h, b, r.data(), [&](size_t from, size_t to) {
                       access.write(std::span(host + from, r[0]), to);
                     });
                   });
  });
}

cl_int CL_API_CALL enqueue_copy_buffer_rect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                            const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                                            size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                                            size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                                            const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Memory& from = buffer_of(q, src_buffer);
    Memory& to = buffer_of(q, dst_buffer);
    auto [s, d] = rects(src_origin, dst_origin, region, src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch);
    require(rect_end(s, region) <= from.size(), CL_INVALID_VALUE, "the region is outside the source");
    require(rect_end(d, region) <= to.size(), CL_INVALID_VALUE, "the region is outside the destination");
    if (&from == &to) {
      require(src_slice_pitch == dst_slice_pitch && src_row_pitch == dst_row_pitch, CL_INVALID_VALUE,
              "one buffer with different pitches");
      require(!rectangles_overlap(s.origin, d.origin, region, s.row, s.slice), CL_MEM_COPY_OVERLAP,
              "the regions overlap");
    } else if (from.overlaps(to, 0, 0, std::max(from.size(), to.size()))) {
      // Two buffers over one allocation (sub-buffers): their spans, which
      // may overlap where the rectangles do not (the pitches may differ).
      const size_t a = from.offset_in_allocation() + s.origin, a_end = from.offset_in_allocation() + rect_end(s, region);
      const size_t b = to.offset_in_allocation() + d.origin, b_end = to.offset_in_allocation() + rect_end(d, region);
      require(!(a < b_end && b < a_end), CL_MEM_COPY_OVERLAP, "the regions overlap");
    }
    Ref<Memory> keep_from(&from), keep_to(&to);
    std::array<size_t, 3> r{region[0], region[1], region[2]};
    return enqueue(q, CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list, event_wait_list, event, false,
                   [keep_from, keep_to, s, d, r](Execution& e) {
                     Access source(e, *keep_from);
                     auto bytes = read_span(source, s, r.data());
                     Access destination(e, *keep_to);
                     for_each_row(s, d, r.data(), [&](size_t from, size_t to) {
                       destination.write(std::span(bytes.data() + (from - s.origin), r[0]), to);
                     });
                   });
  });
}

void* CL_API_CALL enqueue_map_buffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset, size_t size,
                                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                     cl_event* event, cl_int* errcode_ret) {
  void* result = nullptr;
  cl_int code = guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Memory& m = buffer_of(q, buffer);
    constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    require(!(map_flags & ~known), CL_INVALID_VALUE, "unknown map flags");
    require(!((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
            CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with READ or WRITE");
    require_inside(m, offset, size);
    if (map_flags & CL_MAP_READ) require_host_reads(m);
    if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) require_host_writes(m);
    std::byte* pointer = m.map_pointer(offset);
    m.add_mapping({pointer, offset, size, map_flags});
    Ref<Memory> keep(&m);
    // The host memory gets the buffer's contents unless the map discards them.
    const bool reads = !(map_flags & CL_MAP_WRITE_INVALIDATE_REGION);
    cl_int waited = enqueue(q, CL_COMMAND_MAP_BUFFER, num_events_in_wait_list, event_wait_list, event, blocking_map,
                            [keep, pointer, offset, size, reads](Execution& e) {
                              if (reads) Access(e, *keep).read(std::span(pointer, size), offset);
                            });
    result = pointer;
    return waited;
  });
  if (errcode_ret) *errcode_ret = code;
  return code == CL_SUCCESS ? result : nullptr;
}

cl_int CL_API_CALL enqueue_unmap_mem_object(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                                            cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                            cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Memory& m = buffer_of(q, memobj);
    auto waits = q.wait_list(num_events_in_wait_list, event_wait_list);
    auto mapping = m.take_mapping(mapped_ptr);
    require(mapping.has_value(), CL_INVALID_VALUE, "mapped_ptr is not a pointer this buffer mapped");
    Ref<Memory> keep(&m);
    const bool writes = mapping->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
    Ref<Event> e = q.enqueue(CL_COMMAND_UNMAP_MEM_OBJECT, std::move(waits), [keep, m = *mapping, writes](Execution& e) {
      if (writes) Access(e, *keep).write(std::span(m.pointer, m.size), m.offset);
    });
    return hand_out(std::move(e), event);
  });
}

cl_int CL_API_CALL enqueue_migrate_mem_objects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                               const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                               cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                               cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    require(num_mem_objects && mem_objects, CL_INVALID_VALUE, "no memory objects");
    require(!(flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)), CL_INVALID_VALUE,
            "unknown migration flags");
    std::vector<Ref<Memory>> objects;
    for (cl_uint i = 0; i < num_mem_objects; ++i) objects.emplace_back(&buffer_of(q, mem_objects[i]));
    // To the host: nothing to do, the host reaches every allocation through
    // the runtime. To the queue's device: bring the contents there now.
    const bool to_device = !(flags & CL_MIGRATE_MEM_OBJECT_HOST);
    return enqueue(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list, event_wait_list, event, false,
                   [objects, to_device](Execution& e) {
                     if (to_device)
                       for (const auto& m : objects) m->make_current(e.device);
                   });
  });
}

}  // namespace vkcl::opencl
