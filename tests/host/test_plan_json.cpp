// The plan document (--dry-run --json, results/PLAN_SCHEMA.md): written for every committed
// config, read back with kbench's own JSON reader, and listing exactly what the text dry run lists.
#include "harness/common/json_text.hpp"
#include "harness/common/output_error.hpp"
#include "harness/config/sweep_config.hpp"
#include "harness/config/thresholds.hpp"
#include "harness/plan/config_plan.hpp"
#include "harness/plan/plan_json.hpp"
#include "harness/plan/plan_text.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace kbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

Registry all_ops() {
  Registry registry;
  register_all_ops(registry);
  return registry;
}

fs::path fresh_folder() {
  std::string pattern = (fs::temp_directory_path() / "kbench-plan-json-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

PlanHeader header_for(const std::string& config, const MeasureSettings& settings) {
  PlanHeader header;
  header.build = build_info();
  header.command_line = "kbench --config " + config + " --dry-run --json plan.json";
  header.config = config;
  header.settings = settings;
  header.thresholds = load_thresholds(test::source_path("configs/thresholds.json")).document;
  return header;
}

/// What a listing says, one entry per row: "op dtype shape (class): variant" for rows to run and
/// "op dtype shape (class): SKIPPED variant: reason" for skipped ones, in the listing's order.
struct Listed {
  std::vector<std::string> cases;  ///< "op dtype shape (class)" of each case that runs rows
  std::vector<std::string> rows;
  std::vector<std::string> skipped_rows;
  std::string counts;              ///< the last line
};

/// Splits "a, b, c" into its names.
std::vector<std::string> names_in(const std::string& text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(", ", start);
    names.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return names;
}

Listed parse_listing(const std::string& listing) {
  Listed listed;
  std::istringstream lines(listing);
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t colon = line.find("): ");
    if (colon == std::string::npos) {
      listed.counts = line;
      continue;
    }
    const std::string problem = line.substr(0, colon + 1);
    const std::string rest = line.substr(colon + 3);
    if (rest.rfind("SKIPPED ", 0) == 0) {
      const std::size_t reason = rest.find(": ");
      REQUIRE(reason != std::string::npos);
      for (const std::string& name : names_in(rest.substr(8, reason - 8)))
        listed.skipped_rows.push_back(problem + ": SKIPPED " + name + ": " + rest.substr(reason + 2));
    } else {
      listed.cases.push_back(problem);
      for (const std::string& name : names_in(rest)) listed.rows.push_back(problem + ": " + name);
    }
  }
  return listed;
}

std::string problem_of(const json& c) {
  Shape shape;
  for (const json& extent : c.at("shape")) shape.push_back(extent.get<std::int64_t>());
  return c.at("op").get<std::string>() + " " + c.at("dtype").get<std::string>() + " " + format_shape(shape) + " (" +
         c.at("size_class").get<std::string>() + ")";
}

/// The same as parse_listing, from the document.
Listed listed_in(const json& document) {
  Listed listed;
  for (const json& c : document.at("cases")) {
    listed.cases.push_back(problem_of(c));
    for (const json& row : c.at("rows")) listed.rows.push_back(problem_of(c) + ": " + row.at("variant").get<std::string>());
  }
  const auto add_skipped = [&](const json& c) {
    for (const json& row : c.at("skipped_rows")) {
      listed.skipped_rows.push_back(problem_of(c) + ": SKIPPED " + row.at("variant").get<std::string>() + ": " +
                                    row.at("reason").get<std::string>());
    }
  };
  for (const json& c : document.at("cases")) add_skipped(c);
  for (const json& c : document.at("skipped_cases")) add_skipped(c);
  return listed;
}

std::vector<std::string> sorted(std::vector<std::string> list) {
  std::sort(list.begin(), list.end());
  return list;
}

}  // namespace

TEST_CASE("every committed config's plan is written, reads back and lists what the text dry run lists", "[plan_json]") {
  const Registry registry = all_ops();
  const fs::path folder = fresh_folder();
  std::size_t configs = 0;
  for (const auto& file : fs::directory_iterator(test::source_path("configs"))) {
    if (file.path().extension() != ".json" || file.path().filename() == "thresholds.json") continue;
    ++configs;
    const std::string path = file.path().string();
    INFO(path);
    const SweepConfig config = load_sweep_config(path);
    const Plan plan = make_config_plan(registry, config, {});
    const fs::path written = folder / file.path().filename();
    write_plan_file(plan, header_for(path, config.settings), written.string());

    const json document = read_json_file(written.string());  // kbench's reader: duplicate keys, depth, ...
    CHECK(document.at("plan_schema_version") == 1);
    CHECK(document.at("kind") == "kbench-plan");
    CHECK(document.at("config") == path);
    CHECK(document.at("seed").is_null());
    CHECK(document.at("settings") == settings_to_json(config.settings));

    const Listed text = parse_listing(plan_listing(plan));
    const Listed json_listed = listed_in(document);
    CHECK(json_listed.cases == text.cases);  // the same cases in the same order
    CHECK(json_listed.rows == text.rows);    // each case's rows in run order
    CHECK(sorted(json_listed.skipped_rows) == sorted(text.skipped_rows));
    CHECK(document.at("cases").size() == plan.entries.size());
    CHECK(text.counts.rfind(std::to_string(plan.entries.size()) + " problems, " + std::to_string(plan.row_count()) + " rows", 0) == 0);
    CHECK(json_listed.rows.size() == plan.row_count());
    CHECK(json_listed.skipped_rows.size() == plan.skipped_row_count());
  }
  CHECK(configs >= 7);  // add, all, gelu, matmul, softmax, sum, targets
  fs::remove_all(folder);
}

TEST_CASE("a plan's cases carry the run's rows, traffic and descriptions; skips keep their reasons", "[plan_json]") {
  const Registry registry = all_ops();
  const std::string path = test::fixture_path("configs/with-skips.json");
  const SweepConfig config = load_sweep_config(path);
  const Plan plan = make_config_plan(registry, config, {});
  const json document = plan_to_json(plan, header_for(path, config.settings));

  const json& first = document.at("cases").at(0);
  CHECK(first.at("op") == "add");
  CHECK(first.at("shape") == json::array({256, 256}));
  CHECK(first.at("elements") == 256 * 256);
  CHECK(first.at("traffic").at("bytes_read") == 2.0 * 256 * 256 * 4);
  CHECK(first.at("traffic").at("bytes_written") == 256.0 * 256 * 4);
  const json& roof = first.at("rows").back();
  CHECK(roof.at("variant") == "d2d_copy");
  CHECK(roof.at("role") == "roof");
  CHECK(roof.at("kernels_per_call") == 0);
  CHECK(roof.at("source") == "kbench");
  CHECK(first.at("rows").at(0).at("description").get<std::string>() != "");
  CHECK_FALSE(first.contains("reason"));  // a case that runs has no reason

  // add fp16 256x256 runs without naive, which its skipped_rows name with the reason.
  const json& fp16 = document.at("cases").at(1);
  CHECK(fp16.at("dtype") == "fp16");
  REQUIRE(fp16.at("skipped_rows").size() == 1);
  CHECK(fp16.at("skipped_rows").at(0) ==
        json{{"variant", "naive"}, {"role", "own"}, {"reason", "naive fp16 is not interesting here"}});

  // The whole of add fp32 4096x4096 is skipped: no rows to run, every row with the reason.
  REQUIRE(document.at("skipped_cases").size() == 1);
  const json& skipped = document.at("skipped_cases").at(0);
  CHECK(skipped.at("shape") == json::array({4096, 4096}));
  CHECK(skipped.at("rows").empty());
  // Every variant add declares, plus its copy-roof row.
  CHECK(skipped.at("skipped_rows").size() == registry.find("add")->variants().size() + 1);
  CHECK(skipped.at("reason") == "too slow for this test");
}

TEST_CASE("an --op plan has no config, keeps --seed and repeats the thresholds document", "[plan_json]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"add"};
  selection.size_classes = {"small"};
  selection.variants = {"naive"};
  selection.with_references = false;
  PlanHeader header;
  header.build = build_info();
  header.command_line = "kbench --op add --size small --variant naive --no-references --seed 7 --dry-run --json p.json";
  header.seed = 7;
  header.settings.min_samples = 42;
  const Thresholds thresholds = load_thresholds(test::source_path("configs/thresholds.json"));
  header.thresholds = thresholds.document;
  const json document = plan_to_json(make_plan(registry, selection), header);

  CHECK(document.at("config").is_null());
  CHECK(document.at("seed") == 7u);
  CHECK(document.at("settings").at("min_samples") == 42);
  CHECK(document.at("thresholds") == read_json_file(test::source_path("configs/thresholds.json")));
  CHECK(document.at("kbench").at("version") == build_info().version);
  CHECK(document.at("command_line") == header.command_line);
  REQUIRE(document.at("cases").size() == 2);  // 256x256 and 512x512
  for (const json& c : document.at("cases")) {
    REQUIRE(c.at("rows").size() == 1);
    CHECK(c.at("rows").at(0).at("variant") == "naive");
    CHECK(c.at("size_class") == "small");
  }
  CHECK(document.at("skipped_cases").empty());
}

TEST_CASE("a shard's plan names the whole plan's fingerprint and cases, and its shard", "[plan_json]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"add"};
  selection.size_classes = {"small"};
  selection.variants = {"naive"};
  PlanHeader header;
  header.build = build_info();
  CHECK_FALSE(plan_to_json(make_plan(registry, selection), header).contains("plan"));  // no identity given
  PlanIdentity identity;
  identity.fingerprint = "fnv1a64:0123456789abcdef";
  identity.cases = {"add fp32 256x256", "add fp32 512x512", "add fp16 256x256"};
  identity.shard_index = 1;
  identity.shard_count = 3;
  identity.shard_source = "SLURM_ARRAY_TASK_ID";
  header.identity = identity;
  const json plan = plan_to_json(make_plan(registry, selection), header).at("plan");
  CHECK(plan.at("fingerprint") == identity.fingerprint);
  CHECK(plan.at("cases").size() == 3);
  CHECK(plan.at("shard") == json{{"index", 2}, {"count", 3}, {"source", "SLURM_ARRAY_TASK_ID"}});
  identity.shard_count = 1;
  header.identity = identity;
  CHECK(plan_to_json(make_plan(registry, selection), header).at("plan").at("shard").is_null());
}

TEST_CASE("a plan that cannot be written is an output error and leaves no file", "[plan_json]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"add"};
  const fs::path folder = fresh_folder();
  const fs::path target = folder / "no-such-folder" / "plan.json";
  CHECK_THROWS_AS(write_plan_file(make_plan(registry, selection), PlanHeader{}, target.string()), OutputError);
  CHECK_FALSE(fs::exists(target));
  fs::remove_all(folder);
}
