#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

extern char** environ;

namespace vkcl::detail {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// Above 2 (the application may have closed a standard stream), so that the
// child's dup2 onto 0, 1 or 2 is never a dup2 onto itself, which would leave
// it close-on-exec; still close-on-exec here.
UniqueFd above_standard_streams(UniqueFd fd) {
  if (fd.get() > STDERR_FILENO) return fd;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) throw_errno("fcntl(F_DUPFD_CLOEXEC)");
  return UniqueFd(moved);
}

struct Channel {
  UniqueFd ours, theirs;
};

// A pipe for one of the child's output streams: we read, it writes.
Channel output_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2");
  UniqueFd read_end(fds[0]), write_end(fds[1]);
  return {above_standard_streams(std::move(read_end)), above_standard_streams(std::move(write_end))};
}

// The child's standard input: a connected pair of stream sockets rather than
// a pipe, because send(MSG_NOSIGNAL) on a socket fails with EPIPE where a
// write to a pipe whose reader has died raises SIGPIPE, which would end the
// application unless it ignores SIGPIPE (and changing that is process-wide).
// The child reads it like a pipe.
Channel input_socket() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) throw_errno("socketpair");
  UniqueFd ours(fds[0]), theirs(fds[1]);
  return {above_standard_streams(std::move(ours)), above_standard_streams(std::move(theirs))};
}

// Owns posix_spawn's two attribute objects for one spawn.
class SpawnSetup {
 public:
  SpawnSetup(int in, int out, int err) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attributes_);
    posix_spawn_file_actions_adddup2(&actions_, in, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions_, out, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions_, err, STDERR_FILENO);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    // Descriptors the application opened without close-on-exec stay out too.
    posix_spawn_file_actions_addclosefrom_np(&actions_, STDERR_FILENO + 1);
#endif
    // The application's blocked and ignored signals are not the worker's
    // business: SIGPIPE ignored here must not outlive exec there.
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&attributes_, &none);
    posix_spawnattr_setsigdefault(&attributes_, &all);
    posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup() {
    posix_spawnattr_destroy(&attributes_);
    posix_spawn_file_actions_destroy(&actions_);
  }

  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attributes() const { return &attributes_; }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
};

// Appends to `kept` and drops its start beyond `limit` bytes.
void keep_tail(std::string& kept, bool& cut, std::string_view more, size_t limit) {
  kept.append(more);
  if (kept.size() > limit) {
    kept.erase(0, kept.size() - limit);
    cut = true;
  }
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void UniqueFd::reset() {
  // Not retried on EINTR: on Linux the descriptor is closed whatever close returns.
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

ChildProcess::ChildProcess(const std::filesystem::path& program, int in, int out, int err) {
  const SpawnSetup setup(in, out, err);
  std::string path = program.string();
  char* argv[] = {path.data(), nullptr};
  if (const int error = ::posix_spawn(&pid_, path.c_str(), setup.actions(), setup.attributes(), argv, environ);
      error != 0) {
    pid_ = -1;
    throw std::system_error(error, std::generic_category(), "posix_spawn");
  }
}

ChildProcess::~ChildProcess() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
}

std::optional<int> ChildProcess::wait() {
  int status = 0;
  pid_t reaped;
  while ((reaped = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  const int error = errno;
  pid_ = -1;
  if (reaped >= 0) return status;
  if (error == ECHILD) return std::nullopt;  // the application reaped it
  throw std::system_error(error, std::generic_category(), "waitpid");
}

namespace {

// Exchanges bytes with a started child: writes `input` to `in` (then closes
// it, when `close_input`) while reading `out` and `err`. Without
// `answer_size`, until all three are closed; with it, until the output holds
// the whole answer (then what stands ready on `err` is read too) or ends
// (then `err` is read to its end).
struct Pumped {
  ChildRun run;
  bool answered = false;  // the whole answer came (with `answer_size`)
};

Pumped pump(UniqueFd& in, UniqueFd& out, UniqueFd& err, std::string_view input, bool close_input,
            const AnswerSize& answer_size, size_t error_bytes_kept) {
  Pumped pumped;
  ChildRun& run = pumped.run;
  if (input.empty() && close_input) in.reset();
  char buffer[1 << 16];
  auto answered = [&] {
    if (!answer_size) return false;
    const std::optional<size_t> size = answer_size(run.output);
    return size && run.output.size() >= *size;
  };
  // Once answered, only what `err` holds already is wanted: poll without waiting.
  bool draining = false, output_ended = false;
  while (in.valid() || out.valid() || err.valid()) {
    if (!draining && answered()) draining = true;
    pollfd watched[3];
    UniqueFd* owners[3];
    nfds_t count = 0;
    auto watch = [&](UniqueFd& fd, short events) {
      if (!fd.valid()) return;
      watched[count] = {fd.get(), events, 0};
      owners[count++] = &fd;
    };
    if (!draining) {
      if (!input.empty()) watch(in, POLLOUT);
      watch(out, POLLIN);
    }
    watch(err, POLLIN);
    if (count == 0) break;
    const int ready = ::poll(watched, count, draining ? 0 : -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw_errno("poll");
    }
    if (ready == 0) break;  // drained
    for (nfds_t i = 0; i < count; ++i) {
      if (watched[i].revents == 0) continue;
      UniqueFd& fd = *owners[i];
      if (&fd == &in) {
        const ssize_t sent = ::send(fd.get(), input.data(), input.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) input.remove_prefix(size_t(sent));
        else if (errno == EPIPE || errno == ECONNRESET) fd.reset();  // it stopped reading; its status says why
        else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) throw_errno("send");
        if (input.empty() && close_input) fd.reset();  // the end of the child's input
        continue;
      }
      const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
      if (got > 0) {
        const std::string_view bytes(buffer, size_t(got));
        if (&fd == &out) run.output.append(bytes);
        else keep_tail(run.errors, run.errors_cut, bytes, error_bytes_kept);
      } else if (got == 0) {
        fd.reset();
        if (&fd == &out) output_ended = true;
      } else if (errno != EINTR && errno != EAGAIN) {
        throw_errno("read");
      }
    }
    // A child that ended before answering: the rest of its standard error says why.
    if (answer_size && output_ended && !answered()) in.reset();
  }
  pumped.answered = answered();
  return pumped;
}

}  // namespace

ChildRun run_child(const std::filesystem::path& program, std::string_view input, size_t error_bytes_kept) {
  Channel in = input_socket(), out = output_pipe(), err = output_pipe();
  ChildProcess child(program, in.theirs.get(), out.theirs.get(), err.theirs.get());
  // The child holds its own copies now; without ours, its output ends when it does.
  in.theirs.reset();
  out.theirs.reset();
  err.theirs.reset();
  ChildRun run = pump(in.ours, out.ours, err.ours, input, /*close_input=*/true, nullptr, error_bytes_kept).run;
  run.status = child.wait();
  return run;
}

ChildConversation::ChildConversation(const std::filesystem::path& program) {
  Channel in = input_socket(), out = output_pipe(), err = output_pipe();
  child_.emplace(program, in.theirs.get(), out.theirs.get(), err.theirs.get());
  in_ = std::move(in.ours);
  out_ = std::move(out.ours);
  err_ = std::move(err.ours);
}

ChildRun ChildConversation::turn(std::string_view input, const AnswerSize& answer_size, size_t error_bytes_kept) {
  if (ended_) throw std::logic_error("ChildConversation::turn after the child ended");
  Pumped pumped = pump(in_, out_, err_, input, /*close_input=*/false, answer_size, error_bytes_kept);
  if (!pumped.answered) {  // its output ended first
    ended_ = true;
    pumped.run.status = child_->wait();
  }
  return std::move(pumped.run);
}

}  // namespace vkcl::detail
