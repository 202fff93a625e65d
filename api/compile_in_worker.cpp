// vkcl::compile_in_worker: one vkcl-compile-worker process per compile
// (vkcl/compile_worker.h), spoken to in the protocol of compile_protocol.h.
#include <sys/wait.h>

#include <cstring>
#include <system_error>

#include "child_process.h"
#include "compile_protocol.h"
#include "vkcl/compile_worker.h"

namespace vkcl {
namespace {

namespace protocol = vkcl::worker_protocol;

// How much of the worker's standard error a log keeps: its end, where a
// crash report or an assertion's message is.
constexpr size_t kErrorBytesKept = 16 * 1024;

// "SIGSEGV" for 11, and so on.
std::string signal_name(int signal) {
  const char* abbreviation = ::sigabbrev_np(signal);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation : "an unknown signal";
}

// The message of a compile that the worker did not answer, ending with what
// it wrote on standard error.
class WorkerFailure {
 public:
  WorkerFailure(std::string_view file_name, const std::filesystem::path& worker)
      : file_name_(file_name), worker_(worker.string()) {}

  [[noreturn]] void operator()(const std::string& what, const detail::ChildRun* run = nullptr) const {
    std::string text = file_name_ + ": error: " + what + "\n";
    if (run == nullptr) {
      text += "note: the compiler is " + worker_ + "\n";
    } else if (run->errors.empty()) {
      text += "note: " + worker_ + " wrote nothing on standard error\n";
    } else {
      text += "note: " + worker_ +
              (run->errors_cut ? " wrote on standard error, ending:\n...\n" : " wrote on standard error:\n");
      text += run->errors;
      if (text.back() != '\n') text += '\n';
    }
    throw CompileError(text);
  }

 private:
  std::string file_name_, worker_;
};

// Runs `request` in a new worker; the response of a request that succeeded,
// with what the worker printed on standard error appended to its log.
// Throws CompileError for a failed one and for a worker that did not answer.
protocol::Response ask_worker(const protocol::Request& request, const std::filesystem::path& worker_path) {
  const std::string_view file_name = request.file_name;
  std::filesystem::path worker = worker_path;
  if (worker.empty()) {
    try {
      worker = find_compile_worker();
    } catch (const CompileError& error) {
      throw CompileError(std::string(file_name) + ": " + error.what());
    }
  }
  const WorkerFailure fail(file_name, worker);

  detail::ChildRun run;
  try {
    run = detail::run_child(worker, protocol::encode(request), kErrorBytesKept);
  } catch (const std::system_error& error) {
    fail(std::string("cannot run the compiler: ") + error.what());  // "posix_spawn: No such file or directory"
  }

  // A status the application took from us (it reaps every child) says
  // nothing; the answer alone decides then.
  if (run.status && WIFSIGNALED(*run.status)) {
    const int signal = WTERMSIG(*run.status);
    fail("the compiler crashed (signal " + std::to_string(signal) + ": " + signal_name(signal) + ")",
         &run);
  }
  protocol::Response response;
  try {
    response = protocol::decode_response(run.output);
  } catch (const protocol::ProtocolError& error) {
    if (run.output.empty() || (run.status && WEXITSTATUS(*run.status) != 0)) {
      const std::string status = run.status ? " with status " + std::to_string(WEXITSTATUS(*run.status)) : "";
      fail("the compiler exited" + status + " without an answer", &run);
    }
    fail(std::string("the compiler's answer is unusable: ") + error.what(), &run);
  }
  // Anything the worker printed belongs in the log, not on the application's
  // standard error: a message the translator lets through, say.
  std::string printed = run.errors_cut ? "...\n" + run.errors : run.errors;
  if (!response.ok) throw CompileError(response.log + printed);
  response.log += printed;
  return response;
}

protocol::Request request_of(protocol::RequestKind kind, std::string_view file_name, const CompileOptions& options) {
  protocol::Request request;
  request.kind = kind;
  request.file_name = file_name;
  request.options = options;
  return request;
}

WorkerCompileResult module_of(protocol::Response response) {
  return {std::move(response.module), std::move(response.log)};
}

WorkerObjectResult object_of(protocol::Response response) {
  return {std::move(response.bitcode), std::move(response.log)};
}

std::string bytes_of(std::span<const uint32_t> words) {
  return std::string(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
}

}  // namespace

WorkerCompileResult compile_in_worker(std::string_view source, std::string_view file_name,
                                      const CompileOptions& options, std::span<const InputHeader> headers,
                                      const std::filesystem::path& worker) {
  protocol::Request request = request_of(protocol::RequestKind::Compile, file_name, options);
  request.source = source;
  request.headers.assign(headers.begin(), headers.end());
  return module_of(ask_worker(request, worker));
}

WorkerObjectResult compile_object_in_worker(std::string_view source, std::string_view file_name,
                                            const CompileOptions& options, std::span<const InputHeader> headers,
                                            const std::filesystem::path& worker) {
  protocol::Request request = request_of(protocol::RequestKind::CompileToObject, file_name, options);
  request.source = source;
  request.headers.assign(headers.begin(), headers.end());
  return object_of(ask_worker(request, worker));
}

WorkerCompileResult link_in_worker(std::span<const std::string> objects, std::string_view file_name,
                                   const CompileOptions& options, const std::filesystem::path& worker) {
  protocol::Request request = request_of(protocol::RequestKind::Link, file_name, options);
  request.inputs.assign(objects.begin(), objects.end());
  return module_of(ask_worker(request, worker));
}

WorkerObjectResult link_library_in_worker(std::span<const std::string> objects, std::string_view file_name,
                                          const std::filesystem::path& worker) {
  protocol::Request request = request_of(protocol::RequestKind::LinkToLibrary, file_name, {});
  request.inputs.assign(objects.begin(), objects.end());
  return object_of(ask_worker(request, worker));
}

WorkerCompileResult compile_il_in_worker(std::span<const uint32_t> words, std::string_view file_name,
                                         const CompileOptions& options, std::span<const SpecConstant> spec_constants,
                                         const std::filesystem::path& worker) {
  protocol::Request request = request_of(protocol::RequestKind::CompileIL, file_name, options);
  request.inputs = {bytes_of(words)};
  request.spec_constants.assign(spec_constants.begin(), spec_constants.end());
  return module_of(ask_worker(request, worker));
}

WorkerObjectResult compile_il_object_in_worker(std::span<const uint32_t> words, std::string_view file_name,
                                               std::span<const SpecConstant> spec_constants,
                                               const std::filesystem::path& worker) {
  protocol::Request request = request_of(protocol::RequestKind::CompileILToObject, file_name, {});
  request.inputs = {bytes_of(words)};
  request.spec_constants.assign(spec_constants.begin(), spec_constants.end());
  return object_of(ask_worker(request, worker));
}

}  // namespace vkcl
