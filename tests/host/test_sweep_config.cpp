#include "harness/common/json_input.hpp"
#include "harness/config/sweep_config.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <cstdio>
#include <fstream>

using namespace kbench;
using nlohmann::json;

namespace {

SweepConfig parse(const std::string& text) { return parse_sweep_config(json::parse(text), "test.json"); }

/// The InputError message for a config document, or "no error".
std::string config_error(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

/// A config with one sweep whose fields are `fields` (JSON members without braces).
std::string one_sweep(const std::string& fields) {
  return R"({"sweeps": [{"op": "add", "size_class": "small", )" + fields + "}]}";
}

}  // namespace

TEST_CASE("explicit lists, ranges and powers of two", "[config]") {
  const SweepConfig config = parse(one_sweep(R"("shape": ["N", "M"], "axes": {"N": [3, 1], "M": {"range": {"from": 4, "to": 10, "step": 3}}})"));
  REQUIRE(config.sweeps.size() == 1);
  CHECK(config.sweeps[0].shapes == std::vector<Shape>{{3, 4}, {3, 7}, {3, 10}, {1, 4}, {1, 7}, {1, 10}});
  CHECK(config.sweeps[0].dtypes == std::vector<std::string>{"fp32"});  // the default
  CHECK(config.file == "test.json");

  const SweepConfig pow2 = parse(one_sweep(R"("shape": ["N"], "axes": {"N": {"pow2": {"from": 256, "to": 4096}}})"));
  CHECK(pow2.sweeps[0].shapes == std::vector<Shape>{{256}, {512}, {1024}, {2048}, {4096}});
  const SweepConfig step1 = parse(one_sweep(R"("shape": ["N", 7], "axes": {"N": {"range": {"from": 1, "to": 3}}})"));
  CHECK(step1.sweeps[0].shapes == std::vector<Shape>{{1, 7}, {2, 7}, {3, 7}});
}

TEST_CASE("a repeated axis name gives square shapes; constants stay", "[config]") {
  const SweepConfig config = parse(one_sweep(R"("shape": [4, "N", "N"], "axes": {"N": [256, 512]})"));
  CHECK(config.sweeps[0].shapes == std::vector<Shape>{{4, 256, 256}, {4, 512, 512}});
}

TEST_CASE("zipped axes move together; other axes cross them", "[config]") {
  // matmul-like: M, N, K paired, crossed with a batch axis.
  const SweepConfig config = parse(one_sweep(
      R"("shape": ["B", "M", "N", "K"], "axes": {"B": [1, 8], "M": [512, 1024], "N": [256, 2048], "K": [64, 128]},
         "zip": [["M", "N", "K"]])"));
  CHECK(config.sweeps[0].shapes ==
        std::vector<Shape>{{1, 512, 256, 64}, {1, 1024, 2048, 128}, {8, 512, 256, 64}, {8, 1024, 2048, 128}});
  // The zip group sits where its first axis first appears in the template.
  const SweepConfig later = parse(one_sweep(
      R"("shape": ["M", "B", "K"], "axes": {"B": [1, 8], "M": [2, 3], "K": [4, 5]}, "zip": [["K", "M"]])"));
  CHECK(later.sweeps[0].shapes == std::vector<Shape>{{2, 1, 4}, {2, 8, 4}, {3, 1, 5}, {3, 8, 5}});
}

TEST_CASE("dtypes, variants, settings and skips are read", "[config]") {
  const SweepConfig config = parse(R"({
    "description": "test",
    "dtypes": ["fp16", "bfloat16"],
    "settings": {"min_samples": 7, "modes": "cold", "min_time_s": 0.5},
    "sweeps": [
      {"op": "add", "size_class": "small", "shape": [8]},
      {"op": "add", "size_class": "large", "shape": [16], "dtypes": ["float32"], "variants": ["vectorized"]}
    ],
    "skip": [{"dtype": "fp16", "variant": "naive", "reason": "not interesting"}]
  })");
  CHECK(config.description == "test");
  CHECK(config.sweeps[0].dtypes == std::vector<std::string>{"fp16", "bf16"});
  CHECK(config.sweeps[1].dtypes == std::vector<std::string>{"fp32"});
  CHECK(config.sweeps[1].variants == std::vector<std::string>{"vectorized"});
  CHECK(config.sweeps[1].origin == "test.json: $.sweeps[1]");
  CHECK(config.settings.min_samples == 7);
  CHECK(config.settings.modes == "cold");
  CHECK(config.settings.min_time_s == Approx(0.5));
  CHECK(config.settings.max_samples == MeasureSettings{}.max_samples);
  CHECK(config.settings_keys.size() == 3);
  REQUIRE(config.skips.size() == 1);
  CHECK(config.skips[0].matches("add", "small", {8}, "fp16", "naive"));
  CHECK_FALSE(config.skips[0].matches("add", "small", {8}, "fp16", "vectorized"));
  CHECK_FALSE(config.skips[0].matches_case("add", "small", {8}, "fp16"));  // names a variant
  CHECK(problem_count(config) == 3);
}

TEST_CASE("structural errors name the file, the JSON path, what was found and what was expected", "[config]") {
  CHECK(contains(config_error("[]"), "test.json: $: found an empty array; expected an object"));
  CHECK(contains(config_error("{}"), "test.json: $: missing key 'sweeps' (or 'include')"));
  CHECK(contains(config_error(R"({"sweep": []})"),
                 "test.json: $: unknown key 'sweep' (did you mean 'sweeps'?); expected one of: description, include"));
  CHECK(contains(config_error(R"({"sweeps": []})"), "$.sweeps: found an empty array; expected a non-empty array of sweeps"));
  CHECK(contains(config_error(R"({"sweeps": [3]})"), "$.sweeps[0]: found 3; expected an object"));
  CHECK(contains(config_error(R"({"sweeps": [{"size_class": "small", "shape": [4]}]})"), "$.sweeps[0]: missing key 'op'"));
  CHECK(contains(config_error(R"({"sweeps": [{"op": 3, "size_class": "small", "shape": [4]}]})"),
                 "$.sweeps[0].op: found 3; expected a string"));
  CHECK(contains(config_error(R"({"sweeps": [{"op": "", "size_class": "small", "shape": [4]}]})"),
                 "$.sweeps[0].op: found \"\"; expected a non-empty name"));
  CHECK(contains(config_error(one_sweep(R"("shapes": [4])")),
                 "test.json: $.sweeps[0]: unknown key 'shapes' (did you mean 'shape'?)"));
  CHECK(contains(config_error(R"({"description": 5, "sweeps": [{"op": "add", "size_class": "s", "shape": [4]}]})"),
                 "$.description: found 5; expected a string"));
}

TEST_CASE("bad dtypes and variants", "[config]") {
  CHECK(contains(config_error(one_sweep(R"("shape": [4], "dtypes": ["fp64"])")),
                 "$.sweeps[0].dtypes[0]: found \"fp64\" (did you mean 'fp32'?); expected one of fp32, fp16, bf16"));
  CHECK(contains(config_error(one_sweep(R"("shape": [4], "dtypes": ["bf61"])")), "found \"bf61\" (did you mean 'bf16'?)"));
  CHECK(contains(config_error(one_sweep(R"("shape": [4], "dtypes": [])")),
                 "$.sweeps[0].dtypes: found an empty array; expected a non-empty array of dtype names"));
  CHECK(contains(config_error(one_sweep(R"("shape": [4], "dtypes": ["fp16", "half"])")),
                 "$.sweeps[0].dtypes[1]: dtype fp16 is listed twice"));
  CHECK(contains(config_error(R"({"dtypes": "fp32", "sweeps": [{"op": "add", "size_class": "s", "shape": [4]}]})"),
                 "$.dtypes: found \"fp32\"; expected a non-empty array of dtype names"));
  CHECK(contains(config_error(one_sweep(R"("shape": [4], "variants": [1])")), "$.sweeps[0].variants[0]: found 1; expected a string"));
  CHECK(contains(config_error(one_sweep(R"("shape": [4], "variants": [])")), "$.sweeps[0].variants: found an empty array"));
}

TEST_CASE("bad shapes and axes", "[config]") {
  CHECK(contains(config_error(one_sweep(R"("shape": [])")),
                 "$.sweeps[0].shape: found an empty array; expected a non-empty array of extents and axis names"));
  CHECK(contains(config_error(one_sweep(R"("shape": [0, 4])")), "$.sweeps[0].shape[0]: found 0; expected a positive integer"));
  CHECK(contains(config_error(one_sweep(R"("shape": [4, 2.5])")), "$.sweeps[0].shape[1]: found 2.5; expected a positive integer"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["M", "K"], "axes": {"M": [1], "N": [2]})")),
                 "$.sweeps[0].shape[1]: axis 'K' is not defined in $.sweeps[0].axes (did you mean 'M'?); defined: M, N"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["M"], "axes": {"M": [1], "N": [2]})")),
                 "$.sweeps[0].axes.N: axis 'N' is not used in $.sweeps[0].shape"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": []})")),
                 "$.sweeps[0].axes.N: found an empty array; expected at least one value"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": [4, -1]})")),
                 "$.sweeps[0].axes.N[1]: found -1; expected a positive integer"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": 4})")),
                 "$.sweeps[0].axes.N: found 4; expected an array of positive integers, {\"range\": {...}} or {\"pow2\": {...}}"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"ranges": {}}})")),
                 "$.sweeps[0].axes.N: unknown key 'ranges' (did you mean 'range'?); expected one of: range, pow2"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"range": {"from": 1, "to": 2}, "pow2": {"from": 1, "to": 2}}})")),
                 "$.sweeps[0].axes.N: found 2 keys; expected exactly one of range, pow2"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"range": {"from": 8, "to": 4}}})")),
                 "$.sweeps[0].axes.N.range.to: found 4; expected a value >= from (8)"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"range": {"from": 1, "to": 4, "step": 0}}})")),
                 "$.sweeps[0].axes.N.range.step: found 0; expected a positive integer"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"range": {"from": 1, "to": 4, "stride": 1}}})")),
                 "$.sweeps[0].axes.N.range: unknown key 'stride'"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"pow2": {"from": 3, "to": 16}}})")),
                 "$.sweeps[0].axes.N.pow2.from: found 3; expected a power of two"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"pow2": {"from": 16}}})")),
                 "$.sweeps[0].axes.N.pow2: missing key 'to'"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N"], "axes": {"N": {"range": {"from": 1, "to": 20000}}})")),
                 "the range has 20000 values; expected at most 10000"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["M", "N"], "axes": {"M": {"range": {"from": 1, "to": 200}}, "N": {"range": {"from": 1, "to": 200}}})")),
                 "$.sweeps[0]: the axes expand to more than 10000 shapes"));
}

TEST_CASE("extents that overflow: byte counts beyond 64 bits, integers beyond 2^63, long ranges", "[config]") {
  CHECK(contains(config_error(one_sweep(R"("shape": [4294967296, 4294967296])")),
                 "test.json: $.sweeps[0].shape: shape 4294967296x4294967296 has too many elements (byte counts overflow 64 bits)"));
  CHECK(contains(config_error(one_sweep(R"("shape": ["N", "N", "N"], "axes": {"N": [1024, 8388608]})")),
                 "$.sweeps[0].shape: shape 8388608x8388608x8388608 has too many elements"));
  CHECK(contains(config_error(one_sweep(R"("shape": [18446744073709551615])")),
                 "$.sweeps[0].shape[0]: found 18446744073709551615; expected a positive integer below 2^63"));
  CHECK(contains(config_error(one_sweep(R"("shape": [1e30])")), "$.sweeps[0].shape[0]: found 1e+30; expected a positive integer"));
  // A step that would carry the last value past 2^63 - 1: two values, no overflow.
  CHECK(contains(config_error(one_sweep(
                     R"("shape": ["N"], "axes": {"N": {"range": {"from": 1, "to": 9223372036854775807, "step": 9223372036854775806}}})")),
                 "$.sweeps[0].shape: shape 9223372036854775807 has too many elements"));
  const SweepConfig wide = parse(one_sweep(R"("shape": ["N"], "axes": {"N": {"range": {"from": 1, "to": 9000, "step": 4000}}})"));
  CHECK(wide.sweeps[0].shapes == std::vector<Shape>{{1}, {4001}, {8001}});
}

TEST_CASE("a size class one or two edits from kbench's is a typo; other names are the config's own", "[config]") {
  CHECK(contains(config_error(R"({"sweeps": [{"op": "add", "size_class": "smal", "shape": [4]}]})"),
                 "test.json: $.sweeps[0].size_class: found \"smal\" (did you mean 'small'?); expected small, medium, large, "
                 "xlarge, batch, or a name of your own"));
  CHECK(contains(config_error(R"({"sweeps": [{"op": "add", "size_class": "Large", "shape": [4]}]})"), "(did you mean 'large'?)"));
  CHECK(parse(R"({"sweeps": [{"op": "add", "size_class": "square", "shape": [4]}]})").sweeps[0].size_class == "square");
}

TEST_CASE("bad zipped axes", "[config]") {
  const std::string axes = R"("shape": ["M", "N"], "axes": {"M": [1, 2], "N": [3]}, )";
  CHECK(contains(config_error(one_sweep(axes + R"("zip": [["M", "N"]])")),
                 "$.sweeps[0].zip[0]: axis 'M' has 2 values and axis 'N' has 1; expected zipped axes of equal length"));
  CHECK(contains(config_error(one_sweep(axes + R"("zip": [["M", "Q"]])")),
                 "$.sweeps[0].zip[0][1]: axis 'Q' is not defined in $.sweeps[0].axes"));
  CHECK(contains(config_error(one_sweep(axes + R"("zip": [["M"]])")),
                 "$.sweeps[0].zip[0]: found an array; expected at least two axis names"));
  CHECK(contains(config_error(one_sweep(axes + R"("zip": ["M"])")), "$.sweeps[0].zip[0]: found \"M\"; expected an array of strings"));
  CHECK(contains(config_error(one_sweep(axes + R"("zip": {"M": "N"})")), "$.sweeps[0].zip: found an object; expected an array of arrays"));
  const std::string three = R"("shape": ["M", "N", "K"], "axes": {"M": [1], "N": [3], "K": [4]}, )";
  CHECK(contains(config_error(one_sweep(three + R"("zip": [["M", "N"], ["N", "K"]])")), "$.sweeps[0].zip[1][0]: axis 'N' is zipped twice"));
}

TEST_CASE("bad settings go through the measurement settings table", "[config]") {
  const std::string sweeps = R"("sweeps": [{"op": "add", "size_class": "s", "shape": [4]}])";
  CHECK(contains(config_error(R"({"settings": {"min_sample": 3}, )" + sweeps + "}"),
                 "test.json: $.settings: unknown key 'min_sample' (did you mean 'min_samples'?); expected one of: modes"));
  CHECK(contains(config_error(R"({"settings": {"min_samples": 2.5}, )" + sweeps + "}"),
                 "test.json: $.settings.min_samples: found 2.5; expected an integer (samples)"));
  CHECK(contains(config_error(R"({"settings": {"modes": 1}, )" + sweeps + "}"), "$.settings.modes: found 1; expected a string"));
  CHECK(contains(config_error(R"({"settings": {"min_samples": 0}, )" + sweeps + "}"), "test.json: $.settings: --min-samples is 0"));
  CHECK(contains(config_error(R"({"settings": {"modes": "lukewarm"}, )" + sweeps + "}"), "unknown mode 'lukewarm'"));
  CHECK(contains(config_error(R"({"settings": [], )" + sweeps + "}"), "$.settings: found an empty array; expected an object"));
  CHECK(contains(config_error(R"({"settings": {"min_samples": 4294967297}, )" + sweeps + "}"),
                 "$.settings.min_samples: found 4294967297; expected an integer from -2147483648 to 2147483647 (samples)"));
  CHECK(contains(config_error(R"({"settings": {"timeout_s": 0}, )" + sweeps + "}"),
                 "test.json: $.settings: --timeout-s is 0; expected a value >= 0.001 (s)"));
}

TEST_CASE("bad skips", "[config]") {
  const std::string sweeps = R"("sweeps": [{"op": "add", "size_class": "s", "shape": [4]}], )";
  CHECK(contains(config_error("{" + sweeps + R"("skip": [{"variant": "naive"}]})"), "$.skip[0]: missing key 'reason'"));
  CHECK(contains(config_error("{" + sweeps + R"("skip": [{"reason": "why"}]})"),
                 "$.skip[0]: a skip must name at least one of op, size_class, shape, dtype, variant"));
  CHECK(contains(config_error("{" + sweeps + R"("skip": [{"variants": "naive", "reason": "why"}]})"),
                 "$.skip[0]: unknown key 'variants' (did you mean 'variant'?)"));
  CHECK(contains(config_error("{" + sweeps + R"("skip": [{"dtype": "fp8", "reason": "why"}]})"), "$.skip[0].dtype: found \"fp8\""));
  CHECK(contains(config_error("{" + sweeps + R"("skip": [{"shape": [4, 0], "reason": "why"}]})"),
                 "$.skip[0].shape[1]: found 0; expected a positive integer"));
  CHECK(contains(config_error("{" + sweeps + R"("skip": {"reason": "why"}})"), "$.skip: found an object; expected an array of skips"));
}

TEST_CASE("includes resolve next to the including file; cycles and missing files are named", "[config]") {
  const std::string a = "kbench_test_include_a.json", b = "kbench_test_include_b.json";
  std::ofstream(a) << R"({"settings": {"min_samples": 9}, "sweeps": [{"op": "add", "size_class": "small", "shape": [4]}]})";
  std::ofstream(b) << R"({"include": ["kbench_test_include_a.json"], "settings": {"max_samples": 99},
                          "sweeps": [{"op": "add", "size_class": "large", "shape": [8]}]})";
  const SweepConfig config = load_sweep_config(b);
  REQUIRE(config.sweeps.size() == 2);
  CHECK(config.sweeps[0].origin == "kbench_test_include_a.json: $.sweeps[0]");
  CHECK(config.settings.min_samples == 9);
  CHECK(config.settings.max_samples == 99);

  std::ofstream(a) << R"({"include": ["kbench_test_include_b.json"]})";
  try {
    load_sweep_config(b);
    FAIL("expected an include cycle error");
  } catch (const InputError& e) {
    CHECK(contains(e.what(), "$.include[0]: 'kbench_test_include_b.json' includes itself"));
  }
  std::remove(a.c_str());
  try {
    load_sweep_config(b);
    FAIL("expected a missing include error");
  } catch (const InputError& e) {
    CHECK(contains(e.what(), "kbench_test_include_b.json: $.include[0]: kbench_test_include_a.json: cannot open for reading"));
  }
  std::remove(b.c_str());
}

TEST_CASE("unreadable config files name the file", "[config]") {
  CHECK_THROWS_AS(load_sweep_config("no/such/config.json"), InputError);
  const std::string path = "kbench_test_bad_config.json";
  std::ofstream(path) << "{ \"sweeps\": [ }";
  try {
    load_sweep_config(path);
    FAIL("expected a parse error");
  } catch (const InputError& e) {
    CHECK(contains(e.what(), path + ": not valid JSON at line 1, column 15: syntax error while parsing value - unexpected '}'"));
  }
  std::remove(path.c_str());
}

TEST_CASE("includes are plain files, nested at most 8 deep", "[config]") {
  // Found by fuzzing: an empty include list and no sweeps made an empty plan.
  CHECK(contains(config_error(R"({"include": []})"), "test.json: $.include: found an empty array; expected a non-empty array of config files"));
  CHECK(contains(config_error(R"({"include": ["/dev/null"]})"),
                 "test.json: $.include[0]: /dev/null: is a character device, not a regular file; expected a JSON file"));
  // a0 includes a1, ..., a9 includes a10: too deep, though no file includes itself.
  for (int i = 0; i < 10; ++i) {
    std::ofstream("kbench_test_nest_" + std::to_string(i) + ".json")
        << R"({"include": ["kbench_test_nest_)" << i + 1 << R"(.json"]})";
  }
  std::ofstream("kbench_test_nest_10.json") << R"({"sweeps": [{"op": "add", "size_class": "small", "shape": [4]}]})";
  try {
    load_sweep_config("kbench_test_nest_0.json");
    FAIL("expected an include depth error");
  } catch (const InputError& e) {
    CHECK(contains(e.what(), "$.include[0]: 'kbench_test_nest_8.json' nests includes deeper than 8 files"));
  }
  for (int i = 0; i <= 10; ++i) std::remove(("kbench_test_nest_" + std::to_string(i) + ".json").c_str());
}

TEST_CASE("the shipped add config holds the seed report's categories and dtypes", "[config]") {
  const SweepConfig config = load_sweep_config(test::source_path("configs/add.json"));
  CHECK(problem_count(config) == 21);  // 7 shapes x 3 dtypes
  std::vector<std::string> classes;
  for (const Sweep& sweep : config.sweeps) classes.push_back(sweep.size_class);
  CHECK(classes == std::vector<std::string>{"small", "medium", "large", "xlarge", "batch"});
  CHECK(config.sweeps.back().shapes == std::vector<Shape>{{32, 512, 512}, {16, 1024, 1024}});
}
