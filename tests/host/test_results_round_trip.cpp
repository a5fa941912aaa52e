// Every kbench results file in the tree (test fixtures, real runs under results/, the PyTorch
// baselines that scripts/ write) reads back and writes the same JSON value: the reader and the
// writer agree on every key. Files that other tools wrote may leave out what the writer always
// writes (notes, kernel_breakdown) and round relative_iqr differently; only that may differ.
#include "harness/common/json_text.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace kbench;
using nlohmann::json;

namespace {

/// The results files (schema version 1, with cases) under the fixtures and results/.
std::vector<std::string> results_files() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const fs::path& folder : {fs::path(test::source_path("tests/fixtures")), fs::path(test::source_path("results"))}) {
    if (!fs::exists(folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      const std::string path = entry.path().string();
      if (path.find("bad-results") != std::string::npos) continue;
      const json document = json::parse(test::read_file(path), nullptr, false);
      if (document.is_object() && document.value("schema_version", json()) == json(kResultsSchemaVersion) &&
          document.contains("cases")) {
        files.push_back(path);
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// `original` with what the writer adds or derives taken from `written`: a missing notes list or
/// kernel_breakdown, and relative_iqr (recomputed from the quartiles) where it agrees to 1e-9.
json with_written_extras(json original, const json& written) {
  if (!original.contains("notes")) original["notes"] = written.at("notes");
  for (std::size_t i = 0; i < original.at("cases").size() && i < written.at("cases").size(); ++i) {
    json& row = original["cases"][i];
    const json& written_row = written["cases"][i];
    if (!row.contains("kernel_breakdown")) row["kernel_breakdown"] = written_row.at("kernel_breakdown");
    for (std::size_t t = 0; t < row.at("timings").size() && t < written_row.at("timings").size(); ++t) {
      json& stats = row["timings"][t]["stats"];
      const double mine = written_row["timings"][t]["stats"].at("relative_iqr").get<double>();
      if (std::abs(stats.at("relative_iqr").get<double>() - mine) <= 1e-9) stats["relative_iqr"] = mine;
    }
  }
  return original;
}

}  // namespace

TEST_CASE("every results file in the tree reads back and writes the same JSON value", "[results]") {
  const std::vector<std::string> files = results_files();
  CHECK(files.size() >= 10);
  for (const std::string& path : files) {
    INFO(path);
    const json written = to_json(read_results_file(path));
    CHECK(written == with_written_extras(read_json_file(path), written));
    CHECK(to_json(results_from_json(written)) == written);
  }
}

TEST_CASE("kbench's own runs under results/ are written back byte for byte", "[results]") {
  std::size_t runs = 0;
  for (const std::string& path : results_files()) {
    if (path.find("/results/") == std::string::npos || path.substr(path.size() - 9) != "/run.json") continue;
    INFO(path);
    ++runs;
    const std::string copy = "kbench_test_round_trip.json";
    write_results_file(read_results_file(path), copy);
    CHECK(test::read_file(copy) == test::read_file(path));
    std::remove(copy.c_str());
  }
  CHECK(runs >= 1);
}
