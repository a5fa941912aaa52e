// Hostile inputs (issue 19; README, Assurance), one section per class: special and endless files,
// amplification, JSON beyond what nlohmann refuses, thresholds names, results fields and rows,
// the gate's rows it cannot judge, and control characters in messages. The command-line side of
// each class is tested in tests/CMakeLists.txt (cli_input_*, cli_amplification_*, cli_json_*,
// cli_option_*, cli_thresholds_*, cli_results_*, cli_escape_*).
#include "harness/common/json_text.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/config/measure_settings.hpp"
#include "harness/config/sweep_axes.hpp"
#include "harness/config/sweep_config.hpp"
#include "harness/config/thresholds.hpp"
#include "harness/judge/gate.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/ops/registry.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace kbench;
using nlohmann::json;

namespace {

/// The InputError message of `f`, or "no error".
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string hostile(const std::string& name) { return test::fixture_path("configs/hostile/" + name); }
std::string bad_results(const std::string& name) { return test::fixture_path("bad-results/" + name); }

/// A temporary folder, removed with what it holds.
struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("kbench_hostile_" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("hostile: only regular files of a capped size are read, checked before opening", "[hostile]") {
  CHECK(error_of([] { read_json_file("/dev/zero"); }) == "/dev/zero: is a character device, not a regular file; expected a JSON file");
  CHECK(error_of([] { read_json_file("/dev/urandom", kMaxResultsFileBytes); }) ==
        "/dev/urandom: is a character device, not a regular file; expected a JSON file");
  CHECK(error_of([] { read_json_file("/"); }) == "/: is a folder; expected a JSON file");
  TempDir dir;
  // A FIFO no one writes to: opening it for reading would block forever.
  const std::string fifo = (dir.path / "pipe.json").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of([&] { read_json_file(fifo); }) == fifo + ": is a FIFO (named pipe), not a regular file; expected a JSON file");
  // Past the cap: refused from its size, before a byte is read.
  const std::string big = (dir.path / "big.json").string();
  std::ofstream(big) << "[1, 2, 3]";
  CHECK(read_json_file(big, 9) == json::array({1, 2, 3}));
  CHECK(error_of([&] { read_json_file(big, 8); }) ==
        big + ": is 9 bytes, more than the 8 bytes kbench reads from such a file");
  CHECK(format_byte_limit(kMaxConfigFileBytes) == "64 MiB");
  CHECK(format_byte_limit(kMaxResultsFileBytes) == "512 MiB");
  // Through a symbolic link: what it points to is checked.
  const std::string link = (dir.path / "link.json").string();
  std::filesystem::create_symlink("/dev/zero", link);
  CHECK(error_of([&] { read_json_file(link); }) == link + ": is a character device, not a regular file; expected a JSON file");
  // Every reader goes through it: configs, includes, thresholds, results.
  CHECK(error_of([] { load_sweep_config("/dev/zero"); }) == "/dev/zero: is a character device, not a regular file; expected a JSON file");
  CHECK(contains(error_of([] { load_sweep_config(hostile("include-dev-zero.json")); }),
                 "include-dev-zero.json: $.include[0]: /dev/zero: is a character device"));
  CHECK(contains(error_of([&] { load_thresholds(fifo); }), "is a FIFO (named pipe)"));
  CHECK(contains(error_of([&] { read_results_file(fifo); }), "is a FIFO (named pipe)"));
}

TEST_CASE("hostile: amplification is refused while expanding, well under a second", "[hostile]") {
  const auto start = std::chrono::steady_clock::now();
  CHECK(contains(error_of([] { load_sweep_config(hostile("fanout.json")); }),
                 "fanout.json: $.include[7]: reading 'fanout-middle.json' makes more than 64 files read for one config"));
  CHECK(contains(error_of([] { load_sweep_config(hostile("many-problems.json")); }),
                 "many-problems.json: $.sweeps[10]: the config expands to more than 100000 problems"));
  CHECK(contains(error_of([] { load_sweep_config(hostile("many-sweeps.json")); }),
                 "many-sweeps.json: $.sweeps: the config has more than 1000 sweeps"));
  CHECK(contains(error_of([] { load_sweep_config(hostile("millions-of-shapes.json")); }),
                 "$.sweeps[0]: the axes expand to more than 10000 shapes"));
  // An explicit axis list longer than a sweep may be is refused before its values are read.
  json values = json::array();
  for (int i = 1; i <= 10001; ++i) values.push_back(i);
  CHECK(error_of([&] { parse_axis(values, JsonPlace{"test.json", "$.axes.N"}); }) ==
        "test.json: $.axes.N: the axis lists 10001 values; expected at most 10000");
  CHECK(seconds_since(start) < 1.0);
  // Within the limits: 8 files of the fan-out folder load.
  CHECK(load_sweep_config(hostile("fanout-middle.json")).sweeps.size() == 8);
}

TEST_CASE("hostile: content after the document, keys given twice and deep nesting are not JSON kbench reads", "[hostile]") {
  CHECK(contains(error_of([] { parse_json_text(std::string("{\"a\": 1}\0", 9), "in.json"); }),
                 "in.json: not valid JSON at line 1, column 9: a NUL byte"));
  CHECK(contains(error_of([] { parse_json_text(std::string("[\n\"a\0b\"]", 8), "in.json"); }), "at line 2, column 3: a NUL byte"));
  CHECK(contains(error_of([] { parse_json_text("{\"a\": 1} {}", "in.json"); }), "at line 1, column 10: "));
  CHECK(contains(error_of([] { parse_json_text("{\"a\": 1}\n\n  x", "in.json"); }), "at line 3, column 3: "));
  CHECK(error_of([] { parse_json_text(R"({"a": 1, "b": {"c": [0, {"d": 1, "d": 2}]}})", "in.json"); }) ==
        "in.json: $.b.c[1]: key 'd' appears twice in one object");
  CHECK(error_of([] { parse_json_text(R"({"a": 1, "a": 1})", "in.json"); }) == "in.json: $: key 'a' appears twice in one object");
  // The same key in two objects is fine.
  CHECK(parse_json_text(R"([{"a": 1}, {"a": 2}])", "in.json")[1]["a"] == 2);
  const std::string deep = std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']');
  CHECK(contains(error_of([&] { parse_json_text(deep, "in.json"); }), "nest deeper than 64 levels"));
  const std::string fine = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  CHECK(parse_json_text(fine, "in.json").is_array());
  // Every file kbench reads.
  CHECK(contains(error_of([] { load_sweep_config(hostile("trailing-nul.json")); }), "trailing-nul.json: not valid JSON at line 13, column 1: a NUL byte"));
  CHECK(contains(error_of([] { load_sweep_config(hostile("duplicate-key.json")); }), "$.sweeps[0]: key 'shape' appears twice"));
  CHECK(contains(error_of([] { load_thresholds(hostile("thresholds-duplicate-key.json")); }),
                 "$.default: key 'min_efficiency_pct' appears twice"));
  CHECK(contains(error_of([] { read_results_file(bad_results("duplicate-key.json")); }), "$.cases[0]: key 'variant' appears twice"));
  CHECK(contains(error_of([] { read_results_file(bad_results("trailing-nul.json")); }), "trailing-nul.json: not valid JSON"));
  CHECK(contains(error_of([] { read_results_file(bad_results("trailing-document.json")); }), "expected end of input"));
}

TEST_CASE("hostile: option values out of range are refused by the settings' checks", "[hostile]") {
  CHECK_THROWS_WITH(parse_modes(","), "--modes is empty; expected cold, hot, eager or all");
  MeasureSettings settings;
  CHECK(setting_from_json(settings, *find_measure_setting("min_samples"), json(4294967297ull)) ==
        "expected an integer from -2147483648 to 2147483647 (samples)");
  settings.clock_floor = 2;
  CHECK(validate(settings) == "--clock-floor is 2; expected a fraction in [0, 1]");
  settings = MeasureSettings{};
  settings.warmup_time_s = 1e308;
  CHECK(validate(settings) == "--warmup-time-s is 1e+308; expected a value <= 3600 (s)");
  settings = MeasureSettings{};
  settings.max_samples = 20000000;
  CHECK(validate(settings) == "--max-samples is 2e+07; expected a value <= 1e+07 (samples)");
  settings = MeasureSettings{};
  settings.timeout_s = std::numeric_limits<double>::infinity();
  CHECK(validate(settings) == "--timeout-s is inf; expected a finite value (s)");
}

TEST_CASE("hostile: thresholds naming no op or size class are refused with a suggestion", "[hostile]") {
  std::vector<std::string> ops;
  Registry registry;
  register_all_ops(registry);
  for (const auto& op : registry.ops()) ops.push_back(op->name());
  CHECK(contains(error_of([&] { check_threshold_names(load_thresholds(hostile("thresholds-unknown-op.json")), ops, threshold_size_classes()); }),
                 "thresholds-unknown-op.json: $.ops.addd: no op 'addd' (did you mean 'add'?); ops: add, "));
  CHECK(contains(error_of([&] {
                   check_threshold_names(load_thresholds(hostile("thresholds-unknown-size-class.json")), ops, threshold_size_classes());
                 }),
                 "$.size_classes.lage: no size class 'lage' (did you mean 'large'?); size classes: small, medium, large, xlarge, batch, custom"));
  CHECK(contains(error_of([&] {
                   check_threshold_names(load_thresholds(hostile("thresholds-unknown-op-size-class.json")), ops,
                                         threshold_size_classes());
                 }),
                 "$.ops.add.smal: no size class 'smal' (did you mean 'small'?)"));
  // The shipped thresholds name only what exists; a results file's own ops and size classes count.
  check_threshold_names(load_thresholds(test::source_path("configs/thresholds.json")), ops, threshold_size_classes());
  RunResults run = read_results_file(test::fixture_path("run-pass.json"));
  run.cases[0].op = "addd";
  run.cases[0].size_class = "lage";
  check_threshold_names(load_thresholds(hostile("thresholds-unknown-op.json")), ops, std::vector<const RunResults*>{&run});
  check_threshold_names(load_thresholds(hostile("thresholds-unknown-size-class.json")), ops, std::vector<const RunResults*>{&run, nullptr});
}

TEST_CASE("hostile: results fields in range, one row per case, rows the gate cannot judge fail it", "[hostile]") {
  CHECK(contains(error_of([] { read_results_file(bad_results("block-too-large.json")); }),
                 "$.cases[0].kernel_breakdown.activities[0].block[0]: found 2048; expected an integer from 1 to 1024"));
  CHECK(contains(error_of([] { read_results_file(bad_results("block-threads.json")); }),
                 "$.cases[0].kernel_breakdown.activities[0].block: found an array; expected at most 1024 threads (x * y * z)"));
  CHECK(contains(error_of([] { read_results_file(bad_results("grid-too-large.json")); }),
                 "grid[0]: found 2147483648; expected an integer from 1 to 2147483647"));
  CHECK(contains(error_of([] { read_results_file(bad_results("grid-zero.json")); }), "grid[0]: found 0; expected an integer from 1"));
  CHECK(contains(error_of([] { read_results_file(bad_results("settings-out-of-range.json")); }),
                 "$.settings: --clock-floor is 2; expected a fraction in [0, 1]"));
  CHECK(contains(error_of([] { read_results_file(bad_results("negative-sm-count.json")); }),
                 "$.device.sm_count: found -132; expected an integer >= 0"));
  CHECK(contains(error_of([] { read_results_file(bad_results("duplicate-row.json")); }),
                 "duplicate-row.json: $.cases[5]: repeats the row of $.cases[1] (add vectorized fp32 256x256)"));
  CHECK(contains(error_of([] { read_results_file(bad_results("duplicate-mode.json")); }),
                 "$.cases[0].timings[1]: repeats the cold timing of $.cases[0].timings[0]"));
  // At most kMaxResultsRows rows: reports, compare and the gate match rows pairwise.
  RunResults many = read_results_file(test::fixture_path("run-pass.json"));
  const CaseResult row = many.cases[1];
  many.cases.clear();
  for (std::size_t i = 0; i <= kMaxResultsRows; ++i) {
    many.cases.push_back(row);
    many.cases.back().shape = {static_cast<std::int64_t>(i + 1), 256};
    many.cases.back().elements = static_cast<std::int64_t>(i + 1) * 256;
  }
  CHECK(error_of([&] { results_from_json(to_json(many)); }) == "$.cases: holds 10001 rows; expected at most 10000");
  many.cases.pop_back();
  CHECK(results_from_json(to_json(many)).cases.size() == kMaxResultsRows);
  const Thresholds thresholds = load_thresholds(test::fixture_path("thresholds.json"));
  for (const char* name : {"zero-median.json", "no-timing.json"}) {
    INFO(name);
    const GateResult result = evaluate_gate(read_results_file(bad_results(name)), thresholds, nullptr, {});
    CHECK_FALSE(result.passed());
    REQUIRE(result.violations.size() == 1);
    CHECK(contains(result.violations[0], "add vectorized fp32 256x256 (small): passed but cannot be judged"));
  }
}

TEST_CASE("hostile: control characters from input are escaped in messages", "[hostile]") {
  CHECK(printable("plain text, UTF-8 µs") == "plain text, UTF-8 µs");
  CHECK(printable("a\nb\tc\rd\x1b[31me\x07" "f\x7f" "g") == "a\\nb\\tc\\rd\\e[31me\\x07f\\x7fg");
  CHECK(printable(std::string("nul\0!", 5)) == "nul\\x00!");
  CHECK(printable("csi \xc2\x9b" "31m") == "csi \\u009b31m");
  CHECK(contains(error_of([] { read_json_file("no\nsuch\x1b" "file.json"); }), "no\\nsuch\\efile.json: cannot open for reading"));
  // The message keeps the value as found; the one place that prints messages escapes it
  // (apps/kbench/command_errors.cpp), as here.
  const std::string config = R"({"sweeps": [{"op": "add", "size_class": "small", "shape": [8]}], "de\u001bsc\nription": 1})";
  CHECK(contains(printable(error_of([&] { parse_sweep_config(parse_json_text(config, "in.json"), "in.json"); })),
                 "unknown key 'de\\esc\\nription'"));
  // A NUL byte (\u0000 in a JSON string) would end what(): InputError writes it \x00, and the rest
  // of the message stays.
  CHECK(std::string(InputError(std::string("a\0b", 3)).what()) == "a\\x00b");
  const std::string nul_key = R"({"sweeps": [{"op": "add", "size_class": "small", "shape": [8]}], "de\u0000sc": 1})";
  const std::string nul_error = error_of([&] { parse_sweep_config(parse_json_text(nul_key, "in.json"), "in.json"); });
  CHECK(contains(nul_error, "unknown key 'de\\x00sc'; expected one of"));
  std::ostringstream out;
  print_gate_result(out, evaluate_gate(read_results_file(bad_results("control-characters.json")),
                                       load_thresholds(test::fixture_path("thresholds.json")), nullptr, {}));
  CHECK(contains(out.str(), "incorrect: bad\\e[31m red\\nFAKE line"));
  CHECK_FALSE(contains(out.str(), "\x1b"));
  // Row labels, which every report and the comparison print, are escaped too.
  const RunResults renamed = read_results_file(bad_results("control-op-name.json"));
  CHECK(row_label(renamed.cases[0]) == "add\\e[2J naive fp32 256x256");
}

TEST_CASE("hostile: a results file's display text is escaped when read, so no report echoes it raw", "[hostile]") {
  // Device name, dtype, size class and message with ESC, NUL, a newline and a bell: the Markdown
  // table cells and the comparison's device note printed them raw before.
  const RunResults run = read_results_file(bad_results("control-display-text.json"));
  CHECK(run.device.name == "Synthetic\\e[2J GPU\\x00");
  CHECK(run.cases[0].dtype == "fp32\\e[31m");
  CHECK(run.cases[0].size_class == "small\\nFAKE");
  CHECK(run.cases[0].message == "bad\\x07 bell");
  const Thresholds thresholds = load_thresholds(test::fixture_path("thresholds.json"));
  std::ostringstream markdown;
  write_markdown_report(markdown, ReportInput{&run, &thresholds, "run.json", nullptr, ""});
  const std::string text = markdown.str();
  CHECK(contains(text, "Synthetic\\e[2J GPU\\x00"));
  for (const char control : {'\x1b', '\0', '\x07'}) CHECK(text.find(control) == std::string::npos);
  const RunResults plain = read_results_file(test::fixture_path("run-pass.json"));
  CHECK(contains(device_mismatch(plain, run), "'Synthetic\\e[2J GPU\\x00'"));
}
