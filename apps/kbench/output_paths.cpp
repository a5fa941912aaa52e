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
  for (const std::string& input : inputs) {
    if (!input.empty() && same_file(output, input)) {
      throw std::invalid_argument("refusing to write '" + output + "': it is the input file '" + input + "'");
    }
  }
}

void write_text_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) throw std::runtime_error("cannot open '" + temporary + "' for writing");
    out << text;
    if (!out) throw std::runtime_error("writing '" + temporary + "' failed");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename '" + temporary + "' to '" + path + "'");
  }
}

}  // namespace kbench::cli
