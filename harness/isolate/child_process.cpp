#include "harness/isolate/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace kbench {

namespace {

constexpr std::size_t kKeptStderr = 64 * 1024;

/// Owns a file descriptor.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void append_bounded(std::string& text, const char* data, std::size_t size) {
  text.append(data, size);
  if (text.size() > kKeptStderr) text.erase(0, text.size() - kKeptStderr);
}

}  // namespace

ChildEnd run_child(const std::vector<std::string>& args, const std::function<bool()>& overdue,
                   const std::atomic<bool>* stop) {
  if (args.empty()) throw std::runtime_error("run_child: no program");
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  Fd read_end{pipe_fds[0]}, write_end{pipe_fds[1]};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDERR_FILENO);
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  // A process group of its own: a SIGKILL reaches whatever it started too, and the terminal's
  // SIGINT reaches the parent only, which passes a single SIGTERM on (see below).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot start '" + args[0] + "': " + std::strerror(spawned));
  ::close(write_end.fd);
  write_end.fd = -1;

  ChildEnd end;
  bool stop_sent = false, open = true;
  int status = 0;
  for (;;) {
    pollfd wait_for{read_end.fd, POLLIN, 0};
    if (open && ::poll(&wait_for, 1, 50) > 0) {
      char buffer[4096];
      const ssize_t got = ::read(read_end.fd, buffer, sizeof buffer);
      if (got > 0) append_bounded(end.stderr_text, buffer, static_cast<std::size_t>(got));
      if (got == 0) open = false;  // the child closed its standard error: it is exiting
    } else if (!open) {
      ::usleep(50 * 1000);
    }
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (!end.timed_out && overdue && overdue()) {
      end.timed_out = true;
      ::kill(-pid, SIGKILL);
    }
    if (!stop_sent && stop != nullptr && stop->load()) {
      stop_sent = true;
      ::kill(pid, SIGTERM);
    }
  }
  // Whatever it wrote just before exiting; without waiting for a process it left behind.
  ::fcntl(read_end.fd, F_SETFL, O_NONBLOCK);
  char buffer[4096];
  ssize_t got = 0;
  while (open && (got = ::read(read_end.fd, buffer, sizeof buffer)) > 0) {
    append_bounded(end.stderr_text, buffer, static_cast<std::size_t>(got));
  }
  if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
  return end;
}

}  // namespace kbench
