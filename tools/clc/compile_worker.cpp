// vkcl-compile-worker: the compiler in a process of its own, for a library
// that must not compile in its caller's process (the OpenCL ICD, through
// vkcl::CompileWorkers, api/vkcl/compile_worker.h). It reads requests on
// standard input, one at a time; for each it runs the compiler entry point
// its kind names (compile_opencl, compile_to_library, link_libraries, ...:
// compiler.h) and writes one response on standard output
// (spirv/contract/compile_protocol.h); it exits when its input ends. A
// client keeps it warm between builds (a process start costs more than a
// small kernel's compile) or closes its input after one request.
//
// It lives here, beside clc, because it is the compiler's second front door:
// it links the compiler and the contract and nothing of the runtime, as the
// layout asks of tools/clc/ (docs/design.md, "Layout"); api/ holds only its
// client. Here the compiler's process-wide habits are harmless: its exit()
// and std::cerr interposition (translate.cpp) and crash handlers
// (compiler.cpp) act on this process alone, and one compile runs in it at a
// time. After a request that failed the client sends it no more (a crash
// the compiler recovered from may have left its state broken).
//
// Exit status: 0 when its input ends between requests; 2 after a malformed
// request (a failure response is still written) or for any argument (usage
// on standard error, no response); a crash that the compiler's crash
// recovery does not catch ends it by its signal, which the client reports
// as the compiler crashing.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compile_protocol.h"
#include "compiler.h"

namespace {

namespace protocol = vkcl::worker_protocol;

// Reads exactly `size` bytes, or fewer where the input ends first.
std::string read_exactly(int fd, size_t size) {
  std::string bytes;
  char buffer[1 << 16];
  while (bytes.size() < size) {
    const ssize_t n = ::read(fd, buffer, std::min(sizeof buffer, size - bytes.size()));
    if (n > 0) bytes.append(buffer, size_t(n));
    else if (n == 0) return bytes;
    else if (errno != EINTR) throw std::runtime_error(std::string("cannot read the request: ") + std::strerror(errno));
  }
  return bytes;
}

// The next request's bytes; empty when the input ends before it. A
// message that stops short is decode_request's to report.
std::string read_message(int fd) {
  std::string message = read_exactly(fd, protocol::kHeaderSize);
  if (const std::optional<size_t> size = protocol::message_size(message); size && *size > message.size())
    message += read_exactly(fd, *size - message.size());
  return message;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n > 0) bytes.remove_prefix(size_t(n));
    else if (n < 0 && errno != EINTR) return false;
  }
  return true;
}

// The SPIR-V of a CompileIL* request, its one input's bytes as words.
std::vector<uint32_t> spirv_words(const protocol::Request& request) {
  if (request.inputs.size() != 1 || request.inputs[0].size() % sizeof(uint32_t) != 0)
    throw vkcl::CompileError(request.file_name + ": error: the SPIR-V module is not a whole number of words\n");
  std::vector<uint32_t> words(request.inputs[0].size() / sizeof(uint32_t));
  std::memcpy(words.data(), request.inputs[0].data(), request.inputs[0].size());
  return words;
}

// Runs the compiler entry point the request's kind names.
void run(const protocol::Request& request, protocol::Response& response) {
  auto module = [&](vkcl::CompileResult result) {
    response.log = std::move(result.warnings);
    response.module = std::move(result.module);
  };
  auto bitcode = [&](vkcl::LibraryResult result) {
    response.log = std::move(result.warnings);
    response.bitcode = std::move(result.bitcode);
  };
  const std::string& name = request.file_name;
  switch (request.kind) {
    case protocol::RequestKind::Compile:
      return module(vkcl::compile_opencl(request.source, name, request.options, request.headers));
    case protocol::RequestKind::CompileToObject:
      return bitcode(vkcl::compile_to_library(request.source, name, request.options, request.headers));
    case protocol::RequestKind::CompileIL:
      return module(vkcl::compile_spirv(spirv_words(request), name, request.options, request.spec_constants));
    case protocol::RequestKind::CompileILToObject:
      return bitcode(vkcl::compile_spirv_to_library(spirv_words(request), name, request.spec_constants));
    case protocol::RequestKind::Link:
      return module(vkcl::link_libraries(request.inputs, name, request.options));
    case protocol::RequestKind::LinkToLibrary:
      return bitcode(vkcl::link_to_library(request.inputs, name));
  }
}

protocol::Response compile(const protocol::Request& request) {
  protocol::Response response;
  try {
    run(request, response);
    response.ok = true;
  } catch (const vkcl::CompileError& error) {
    response.log = error.what();
  } catch (const std::exception& error) {
    response.log = request.file_name + ": error: internal compiler error: " + error.what() + "\n";
  }
  return response;
}

}  // namespace

int main(int argc, char**) {
  if (argc > 1) {
    std::fputs("usage: vkcl-compile-worker < requests > responses\n"
               "Reads requests (compile, compile to an object, link, ...) on standard input and writes one\n"
               "response to each on standard output, until its input ends\n"
               "(spirv/contract/compile_protocol.h), as vkcl::compile_in_worker does; it takes no arguments.\n",
               stderr);
    return 2;
  }
  // Standard output carries the response and nothing else: whatever else
  // writes to descriptor 1 (LLVM's outs(), a stray printf) goes to standard
  // error, which the client keeps for its log.
  const int response_fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (response_fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("vkcl-compile-worker: cannot set up standard output");
    return 1;
  }

  for (;;) {
    int status = 0;
    protocol::Response response;
    try {
      const std::string message = read_message(STDIN_FILENO);
      if (message.empty()) return 0;  // the client is done
      response = compile(protocol::decode_request(message));
    } catch (const std::exception& error) {  // a ProtocolError, or the request could not be read
      response.log = std::string("error: vkcl-compile-worker: ") + error.what() + "\n";
      status = 2;
    }
    if (!write_all(response_fd, protocol::encode(response))) {
      std::fprintf(stderr, "vkcl-compile-worker: cannot write the response: %s\n", std::strerror(errno));
      return 1;
    }
    if (status != 0) return status;  // nothing after a malformed request can be trusted to start a message
  }
}
