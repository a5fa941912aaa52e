#include "harness/common/file_output.hpp"

#include "harness/common/output_error.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace kbench {

namespace {

/// Writes all of `text` to `fd`; false with errno set when the device refuses some of it.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    done += static_cast<std::size_t>(wrote);
  }
  return true;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  // A name of kbench's own beside the target (created exclusively by mkstemp), so that no file
  // kbench did not create is ever truncated, renamed or removed.
  std::vector<char> name(path.begin(), path.end());
  for (const char c : std::string(".tmp.XXXXXX")) name.push_back(c);
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    throw OutputError("cannot create a temporary file beside '" + path + "': " + std::strerror(errno));
  }
  const std::string temporary(name.data());
  const auto give_up = [&](const std::string& what) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw OutputError(what + (error != 0 ? std::string(": ") + std::strerror(error) : std::string()));
  };
  // mkstemp makes the file 0600; a results file or report is as readable as any other file.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  errno = 0;
  const bool written = write_all(fd, text) && ::fsync(fd) == 0;
  const int write_error = errno;
  if (::close(fd) != 0 || !written) {
    errno = written ? errno : write_error;
    give_up("writing '" + path + "' failed");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) give_up("cannot replace '" + path + "'");
}

}  // namespace kbench
