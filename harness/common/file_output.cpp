#include "harness/common/file_output.hpp"

#include "harness/common/output_error.hpp"

#include <cstdio>
#include <cstring>
#include <cerrno>
#include <fstream>

namespace kbench {

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  const auto give_up = [&](const std::string& what) {
    const std::string reason = errno != 0 ? std::string(": ") + std::strerror(errno) : std::string();
    std::remove(temporary.c_str());
    throw OutputError(what + reason);
  };
  errno = 0;
  std::ofstream out(temporary, std::ios::binary);
  if (!out) give_up("cannot open '" + temporary + "' for writing");
  out << text;
  out.close();
  if (!out) give_up("writing '" + temporary + "' failed");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) give_up("cannot rename '" + temporary + "' to '" + path + "'");
}

}  // namespace kbench
