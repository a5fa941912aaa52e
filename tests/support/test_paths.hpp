#pragma once
// Paths of the source tree for host tests that read shipped configs and test fixtures.
// KBENCH_SOURCE_DIR is set by tests/CMakeLists.txt.

#include <fstream>
#include <sstream>
#include <string>

namespace kbench::test {

/// A file of the source tree, e.g. source_path("configs/add.json").
inline std::string source_path(const std::string& relative) { return std::string(KBENCH_SOURCE_DIR) + "/" + relative; }

/// A test fixture, e.g. fixture_path("run-pass.json").
inline std::string fixture_path(const std::string& name) { return source_path("tests/fixtures/" + name); }

/// The whole file as bytes ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kbench::test
