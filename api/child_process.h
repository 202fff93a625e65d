// A program run as a child process with its standard streams piped to this
// one: what compile_in_worker needs, safe to use from many threads at once.
//
// Every descriptor made here is close-on-exec from its creation (pipe2,
// socketpair with O_CLOEXEC/SOCK_CLOEXEC), so a child started by another
// thread at the same moment inherits none of them; the child is started with
// posix_spawn (never fork: the caller may be any multithreaded program) and
// gets exactly descriptors 0, 1 and 2, default signal dispositions and an
// empty signal mask. Nothing process-wide is changed: no signal handler, no
// SIGPIPE disposition, no environment variable. The child's standard input
// is a socket (child_process.cpp says why); it reads it like a pipe.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace vkcl::detail {

// An owned file descriptor, closed when this goes.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset();

 private:
  int fd_ = -1;
};

// A started child process, reaped by wait() or, failing that, killed and
// reaped when this goes (no zombie when the caller throws).
class ChildProcess {
 public:
  // Starts `program` with no arguments and this process's environment, on
  // `in`, `out` and `err` as its standard input, output and error. Throws
  // std::system_error with posix_spawn's error (ENOENT, EACCES, ...).
  ChildProcess(const std::filesystem::path& program, int in, int out, int err);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  // Waits for the child to end and returns its waitpid status; once. No
  // status when the application reaped it first: where SIGCHLD is ignored
  // (children are then never zombies) or its handler waits for every child.
  std::optional<int> wait();

 private:
  pid_t pid_ = -1;
};

struct ChildRun {
  std::optional<int> status;  // waitpid's, as ChildProcess::wait gives it
  std::string output;         // all of its standard output
  std::string errors;         // the end of its standard error, at most the bytes asked for
  bool errors_cut = false;    // whether the start of its standard error was dropped
};

// Runs `program`, writes `input` to its standard input and closes it, while
// reading its standard output and error to their ends (all at once, with
// poll: a child that writes much before reading all its input cannot block
// either side), then waits for it. A child that stops reading its input
// early is not an error here: its status says what became of it. Throws
// std::system_error when it cannot be started or a pipe fails.
ChildRun run_child(const std::filesystem::path& program, std::string_view input, size_t error_bytes_kept);

// The length of the whole answer that `output` begins, once known.
using AnswerSize = std::function<std::optional<size_t>(std::string_view output)>;

// A child process spoken to in turns and kept running between them (a warm
// compile worker): each turn writes a request on its standard input and
// reads the answer from its standard output, as long as the answer says it
// is, and its standard error meanwhile, as run_child does.
class ChildConversation {
 public:
  // Starts `program`; throws std::system_error as run_child does.
  explicit ChildConversation(const std::filesystem::path& program);
  ChildConversation(const ChildConversation&) = delete;
  ChildConversation& operator=(const ChildConversation&) = delete;
  // The child is killed, if still running, and reaped.
  ~ChildConversation() = default;

  // One turn: `run.output` is the answer, `run.errors` what the child wrote
  // on standard error during the turn. When its output ends before the
  // answer is whole, the child has ended: the rest of its standard error is
  // read and its status taken (run.status; the conversation is over).
  ChildRun turn(std::string_view input, const AnswerSize& answer_size, size_t error_bytes_kept);
  // Whether an earlier turn found the child ended.
  bool ended() const { return ended_; }

 private:
  UniqueFd in_, out_, err_;
  std::optional<ChildProcess> child_;  // made once the descriptors are
  bool ended_ = false;
};

}  // namespace vkcl::detail
