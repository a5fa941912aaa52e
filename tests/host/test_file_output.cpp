// write_file_atomically: the whole text or nothing, and never a file kbench did not create.
#include "harness/common/file_output.hpp"
#include "harness/common/output_error.hpp"
#include "support/catch.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace kbench;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path fresh_folder() {
  std::string pattern = (fs::temp_directory_path() / "kbench-file-output-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

}  // namespace

TEST_CASE("an atomic write replaces the target and leaves a user's .tmp file alone", "[file_output]") {
  const fs::path folder = fresh_folder();
  const fs::path target = folder / "run.json";
  std::ofstream(folder / "run.json.tmp") << "the user's own file";
  std::ofstream(target) << "old";
  write_file_atomically(target.string(), "new contents\n");
  CHECK(read_all(target) == "new contents\n");
  CHECK(read_all(folder / "run.json.tmp") == "the user's own file");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder)) ++files;
  CHECK(files == 2);  // no temporary file of kbench's left behind
  fs::remove_all(folder);
}

TEST_CASE("a write that cannot happen is an OutputError and leaves nothing behind", "[file_output]") {
  const fs::path folder = fresh_folder();
  CHECK_THROWS_AS(write_file_atomically((folder / "no-such-dir" / "report.md").string(), "x"), OutputError);
  CHECK(fs::is_empty(folder));
  fs::remove_all(folder);
}
