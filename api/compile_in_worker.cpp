// vkcl::CompileWorkers and compile_in_worker: vkcl-compile-worker processes
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
// A warm worker is replaced after this many requests, so that whatever a
// long run leaves behind in it (memory LLVM keeps, say) stays bounded.
constexpr size_t kRequestsPerWorker = 200;

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

// The response in what a worker wrote, with what it printed on standard
// error appended to its log. Throws CompileError for a failed request and for
// a worker that did not answer.
protocol::Response answer_in(const detail::ChildRun& run, const WorkerFailure& fail) {
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

// A worker kept running between requests.
struct CompileWorkers::Warm {
  explicit Warm(const std::filesystem::path& worker) : conversation(worker) {}
  detail::ChildConversation conversation;
  size_t served = 0;
};

CompileWorkers::CompileWorkers(std::filesystem::path worker, size_t kept_idle)
    : worker_(std::move(worker)), kept_idle_(kept_idle) {}

CompileWorkers::~CompileWorkers() = default;

std::filesystem::path CompileWorkers::worker_path(std::string_view file_name) {
  std::lock_guard lock(lock_);
  if (worker_.empty()) {
    try {
      worker_ = find_compile_worker();
    } catch (const CompileError& error) {
      throw CompileError(std::string(file_name) + ": " + error.what());
    }
  }
  return worker_;
}

protocol::Response CompileWorkers::ask(const protocol::Request& request) {
  const std::filesystem::path worker = worker_path(request.file_name);
  const WorkerFailure fail(request.file_name, worker);
  const std::string message = protocol::encode(request);
  if (kept_idle_ == 0) {  // a worker for this request alone: its input closes after it
    detail::ChildRun run;
    try {
      run = detail::run_child(worker, message, kErrorBytesKept);
    } catch (const std::system_error& error) {
      fail(std::string("cannot run the compiler: ") + error.what());  // "posix_spawn: No such file or directory"
    }
    return answer_in(run, fail);
  }
  std::unique_ptr<Warm> warm;
  {
    std::lock_guard lock(lock_);
    if (!idle_.empty()) {
      warm = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  detail::ChildRun run;
  try {
    if (!warm) warm = std::make_unique<Warm>(worker);
    run = warm->conversation.turn(message, protocol::message_size, kErrorBytesKept);
  } catch (const std::system_error& error) {
    fail(std::string("cannot run the compiler: ") + error.what());
  }
  // Throws for a failed request: that worker goes with `warm`, since a crash
  // the compiler recovered from may have left it broken.
  protocol::Response response = answer_in(run, fail);
  if (!warm->conversation.ended() && ++warm->served < kRequestsPerWorker) {
    std::lock_guard lock(lock_);
    if (idle_.size() < kept_idle_) idle_.push_back(std::move(warm));
  }
  return response;
}

WorkerCompileResult CompileWorkers::compile(std::string_view source, std::string_view file_name,
                                            const CompileOptions& options, std::span<const InputHeader> headers) {
  protocol::Request request = request_of(protocol::RequestKind::Compile, file_name, options);
  request.source = source;
  request.headers.assign(headers.begin(), headers.end());
  return module_of(ask(request));
}

WorkerObjectResult CompileWorkers::compile_object(std::string_view source, std::string_view file_name,
                                                  const CompileOptions& options, std::span<const InputHeader> headers) {
  protocol::Request request = request_of(protocol::RequestKind::CompileToObject, file_name, options);
  request.source = source;
  request.headers.assign(headers.begin(), headers.end());
  return object_of(ask(request));
}

WorkerCompileResult CompileWorkers::link(std::span<const std::string> objects, std::string_view file_name,
                                         const CompileOptions& options) {
  protocol::Request request = request_of(protocol::RequestKind::Link, file_name, options);
  request.inputs.assign(objects.begin(), objects.end());
  return module_of(ask(request));
}

WorkerObjectResult CompileWorkers::link_library(std::span<const std::string> objects, std::string_view file_name) {
  protocol::Request request = request_of(protocol::RequestKind::LinkToLibrary, file_name, {});
  request.inputs.assign(objects.begin(), objects.end());
  return object_of(ask(request));
}

WorkerCompileResult CompileWorkers::compile_il(std::span<const uint32_t> words, std::string_view file_name,
                                               const CompileOptions& options,
                                               std::span<const SpecConstant> spec_constants) {
  protocol::Request request = request_of(protocol::RequestKind::CompileIL, file_name, options);
  request.inputs = {bytes_of(words)};
  request.spec_constants.assign(spec_constants.begin(), spec_constants.end());
  return module_of(ask(request));
}

WorkerObjectResult CompileWorkers::compile_il_object(std::span<const uint32_t> words, std::string_view file_name,
                                                     std::span<const SpecConstant> spec_constants) {
  protocol::Request request = request_of(protocol::RequestKind::CompileILToObject, file_name, {});
  request.inputs = {bytes_of(words)};
  request.spec_constants.assign(spec_constants.begin(), spec_constants.end());
  return object_of(ask(request));
}

WorkerCompileResult compile_in_worker(std::string_view source, std::string_view file_name,
                                      const CompileOptions& options, std::span<const InputHeader> headers,
                                      const std::filesystem::path& worker) {
  return CompileWorkers(worker, 0).compile(source, file_name, options, headers);
}

WorkerObjectResult compile_object_in_worker(std::string_view source, std::string_view file_name,
                                            const CompileOptions& options, std::span<const InputHeader> headers,
                                            const std::filesystem::path& worker) {
  return CompileWorkers(worker, 0).compile_object(source, file_name, options, headers);
}

WorkerCompileResult link_in_worker(std::span<const std::string> objects, std::string_view file_name,
                                   const CompileOptions& options, const std::filesystem::path& worker) {
  return CompileWorkers(worker, 0).link(objects, file_name, options);
}

WorkerObjectResult link_library_in_worker(std::span<const std::string> objects, std::string_view file_name,
                                          const std::filesystem::path& worker) {
  return CompileWorkers(worker, 0).link_library(objects, file_name);
}

WorkerCompileResult compile_il_in_worker(std::span<const uint32_t> words, std::string_view file_name,
                                         const CompileOptions& options, std::span<const SpecConstant> spec_constants,
                                         const std::filesystem::path& worker) {
  return CompileWorkers(worker, 0).compile_il(words, file_name, options, spec_constants);
}

WorkerObjectResult compile_il_object_in_worker(std::span<const uint32_t> words, std::string_view file_name,
                                               std::span<const SpecConstant> spec_constants,
                                               const std::filesystem::path& worker) {
  return CompileWorkers(worker, 0).compile_il_object(words, file_name, spec_constants);
}

}  // namespace vkcl
