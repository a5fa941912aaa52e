#include "output_paths.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace kbench::cli {

namespace fs = std::filesystem;

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) return fs::equivalent(a, b, error);
  return fs::weakly_canonical(a, error) == fs::weakly_canonical(b, error);
}

void refuse_overwrite(const std::string& output, const std::vector<std::string>& inputs) {
  std::error_code error;
  const fs::file_status status = fs::status(output, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    throw std::invalid_argument("refusing to write '" + output + "': it is not a regular file (a directory, device or FIFO)");
  }
  for (const std::string& input : inputs) {
    if (!input.empty() && same_file(output, input)) {
      throw std::invalid_argument("refusing to write '" + output + "': it is the input file '" + input + "'");
    }
  }
}

}  // namespace kbench::cli
