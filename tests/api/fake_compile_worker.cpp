// A stand-in for vkcl-compile-worker that misbehaves as VKCL_FAKE_WORKER
// says, for compile_in_worker_test:
//   segv      reads the request, says so on standard error, raises SIGSEGV
//   exit      reads the request, says so on standard error, exits with status 3
//   garbage   reads the request, answers with bytes that are no response
//   ignore    reads nothing, writes nothing, exits 0 (the client's request meets a closed socket)
//   flood     writes 8 MiB on standard error before reading the request,
//             then answers with a warning-only success (no module); neither
//             side may wait for the other
//   serve     answers requests in turn, as the real worker does, until its
//             input ends: the log of request K is "pid P request K"; a
//             source "fail" is a failed request, "crash" raises SIGSEGV,
//             "warn" first writes "warn: request K" on standard error
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "compile_protocol.h"

namespace {

std::string read_all() {
  std::string bytes;
  char buffer[65536];
  ssize_t n;
  while ((n = ::read(STDIN_FILENO, buffer, sizeof buffer)) > 0) bytes.append(buffer, size_t(n));
  return bytes;
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n <= 0) std::exit(1);
    bytes.remove_prefix(size_t(n));
  }
}

// The next whole message on standard input; empty at its end.
std::string read_message() {
  std::string bytes;
  char c;
  for (;;) {
    const auto size = vkcl::worker_protocol::message_size(bytes);
    if (size && bytes.size() >= *size) return bytes;
    if (::read(STDIN_FILENO, &c, 1) != 1) return bytes;
    bytes += c;
  }
}

int serve() {
  for (int served = 1;; ++served) {
    const std::string message = read_message();
    if (message.empty()) return 0;
    const vkcl::worker_protocol::Request request = vkcl::worker_protocol::decode_request(message);
    vkcl::worker_protocol::Response response;
    response.ok = request.source != "fail";
    response.log = "pid " + std::to_string(::getpid()) + " request " + std::to_string(served) + "\n";
    if (request.source == "crash") {
      std::fprintf(stderr, "fake worker: crashing at request %d\n", served);
      std::fflush(stderr);
      ::raise(SIGSEGV);
    }
    if (request.source == "warn") {
      std::fprintf(stderr, "warn: request %d\n", served);
      std::fflush(stderr);
    }
    write_all(STDOUT_FILENO, vkcl::worker_protocol::encode(response));
  }
}

}  // namespace

int main() {
  const char* mode_variable = std::getenv("VKCL_FAKE_WORKER");
  const std::string_view mode = mode_variable != nullptr ? mode_variable : "";
  if (mode == "ignore") return 0;
  if (mode == "serve") return serve();
  if (mode == "flood") {
    const std::string line(1023, 'e');
    for (int i = 0; i < 8 * 1024; ++i) write_all(STDERR_FILENO, line + "\n");
    const vkcl::worker_protocol::Request request = vkcl::worker_protocol::decode_request(read_all());
    vkcl::worker_protocol::Response response;
    response.ok = true;
    response.log = "flood: read " + std::to_string(request.source.size()) + " bytes of source\n";
    write_all(STDOUT_FILENO, vkcl::worker_protocol::encode(response));
    return 0;
  }
  const std::string request = read_all();
  if (mode == "segv") {
    std::fprintf(stderr, "fake worker: read %zu bytes, crashing now\n", request.size());
    std::fflush(stderr);
    ::raise(SIGSEGV);
  } else if (mode == "exit") {
    std::fprintf(stderr, "fake worker: read %zu bytes, exiting with status 3\n", request.size());
    return 3;
  } else if (mode == "garbage") {
    write_all(STDOUT_FILENO, "this is not a response");
    return 0;
  }
  std::fprintf(stderr, "fake worker: unknown VKCL_FAKE_WORKER '%s'\n", std::string(mode).c_str());
  return 4;
}
