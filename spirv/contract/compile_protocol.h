// The compile worker's protocol: what vkcl-compile-worker (tools/clc/
// compile_worker.cpp) and its client, vkcl::compile_in_worker
// (api/compile_in_worker.cpp), exchange. It is here, in the contract, because
// both sides link the contract and neither may depend on the other.
//
// The client writes requests on the worker's standard input, one at a time;
// the worker answers each with one response on its standard output, and
// exits when its input ends. A client that wants one answer closes the input
// after the request; one that keeps the worker warm for later requests
// (vkcl::CompileWorkers) reads each response by its length. Both messages
// are binary, in the byte order of the machine (both ends run on it), and
// carry their length, so that a reader knows a message that stops short (a
// worker that died while writing) from a whole one, and where it ends:
//
//   message       := magic[8] version:u32 body_length:u64 body
//   magic         := "vkclcreq" (request) | "vkclcres" (response)
//   request       := kind:u32 source:string file_name:string options headers:list<header>
//                    inputs:list<string> spec_constants:list<spec_constant>
//   options       := cl_std:u32 defines:list<string> include_dirs:list<string>
//                    frontend_options:list<string> optimize:bool memory_model:u32
//                    vulkan_device_scope:bool lower:bool denorms_are_zero:bool
//                    max_storage_buffers:optional<u32>
//   header        := name:string text:string
//   spec_constant := id:u32 value:u64
//   response      := ok:bool log:string words:list<u32> reflection:string bitcode:string
//   string        := length:u64 bytes
//   list<T>       := count:u64 T*
//   bool          := u8 (0 or 1)
//   optional<T>   := present:bool T (T only when present)
//
// A request's kind says which of the compiler's entry points
// (tools/clc/compiler.h) the worker runs, and so which fields it reads:
// OpenCL C source with its headers, compiled to a module or to a compiled
// object; SPIR-V (the one input's bytes) with its specialization constants,
// to a module or to an object; objects and libraries (the inputs' bytes) to
// a module or to a library. A module comes back as words and reflection, an
// object or library as bitcode; the other fields are empty.
//
// The options are the whole vkcl::CompileOptions, after compile_options_for
// has made the device's choices (memory model, argument passing): the worker
// needs nothing of the device. A response's log is the compiler's warnings
// when ok, else the CompileError's text (file:line:col, warnings first);
// its reflection is the text format of reflection.h. kVersion changes with
// any change to the bodies (version 2: kind, inputs, spec_constants, bitcode).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "compile_options.h"
#include "vulkan_module.h"

namespace vkcl::worker_protocol {

inline constexpr uint32_t kVersion = 2;
// magic, version, body_length
inline constexpr size_t kHeaderSize = 8 + sizeof(uint32_t) + sizeof(uint64_t);

// What the worker is asked to do: which compiler entry point it runs.
enum class RequestKind : uint32_t {
  Compile,           // source, headers → module (compile_opencl)
  CompileToObject,   // source, headers → bitcode (compile_to_library)
  CompileIL,         // inputs[0]: SPIR-V, spec_constants → module (compile_spirv)
  CompileILToObject, // inputs[0]: SPIR-V, spec_constants → bitcode (compile_spirv_to_library)
  Link,              // inputs: bitcode → module (link_libraries)
  LinkToLibrary,     // inputs: bitcode → bitcode (link_to_library)
};
inline constexpr RequestKind kLastRequestKind = RequestKind::LinkToLibrary;
std::string_view to_string(RequestKind kind);

struct Request {
  RequestKind kind = RequestKind::Compile;
  std::string source;
  std::string file_name;  // what diagnostics call the source (the program, for a link)
  CompileOptions options;
  std::vector<InputHeader> headers;
  std::vector<std::string> inputs;  // SPIR-V's bytes, or the objects' bitcode
  std::vector<SpecConstant> spec_constants;
};

struct Response {
  bool ok = false;
  std::string log;      // warnings when ok, the error's text when not
  VulkanModule module;  // empty unless ok (and empty when the options did not ask to lower)
  std::string bitcode;  // a compiled object or library, for the *ToObject and LinkToLibrary kinds
};

// A message that is not a whole, well-formed message of this version.
struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string encode(const Request& request);
std::string encode(const Response& response);
// Throw ProtocolError naming what is wrong (a version other than kVersion
// included); a reflection that does not parse is one too.
Request decode_request(std::string_view message);
Response decode_response(std::string_view message);

// The size of the whole message that `start` begins (its header read), or
// nothing while `start` is shorter than a header. Says nothing of whether
// the message is well-formed: decode_* does.
std::optional<size_t> message_size(std::string_view start);

}  // namespace vkcl::worker_protocol
