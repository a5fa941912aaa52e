// Replays every fuzz input kept in the tree (tests/fuzz/corpus/ and tests/fuzz/regressions/)
// through both loaders as the fuzz targets run them: each input must load or be refused with
// kbench's InputError. Any other exception fails here; a crash fails the test binary (and the
// sanitizer build, scripts/sanitize_host_tests.sh, catches memory errors and UB).
#include "fuzz/fuzz_inputs.hpp"
#include "fuzz/stand_in_ops.hpp"
#include "harness/common/input_error.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>

using namespace kbench;

namespace {

/// Every file under tests/fuzz/corpus/ and tests/fuzz/regressions/ (README.md files aside).
std::vector<std::string> fuzz_inputs() {
  std::vector<std::string> files;
  for (const char* folder : {"tests/fuzz/corpus", "tests/fuzz/regressions"}) {
    const std::filesystem::path root = test::source_path(folder);
    if (!std::filesystem::exists(root)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.is_regular_file() && entry.path().filename() != "README.md") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// "loaded", "InputError", or what else escaped: the outcome of `load` on one input.
template <typename Load>
std::string outcome(Load load) {
  try {
    load();
    return "loaded";
  } catch (const InputError&) {
    return "InputError";
  } catch (const std::exception& e) {
    return std::string("another exception: ") + e.what();
  } catch (...) {
    return "a non-standard exception";
  }
}

Registry stand_ins() {
  Registry registry;
  fuzz::register_stand_in_ops(registry);
  return registry;
}

}  // namespace

TEST_CASE("every kept fuzz input loads or is refused with InputError", "[fuzz]") {
  const std::vector<std::string> files = fuzz_inputs();
  REQUIRE(files.size() >= 20);  // the seed corpus is there
  const Registry registry = stand_ins();
  std::size_t configs_loaded = 0, results_loaded = 0;
  for (const std::string& file : files) {
    INFO(file);
    const std::string text = test::read_file(file);
    const std::string config = outcome([&] { fuzz::load_config(text, registry); });
    const std::string results = outcome([&] { fuzz::load_results(text); });
    CHECK((config == "loaded" || config == "InputError"));
    CHECK((results == "loaded" || results == "InputError"));
    configs_loaded += config == "loaded";
    results_loaded += results == "loaded";
  }
  // The seeds are not all refused: the loaders get past the first check on some of them.
  CHECK(configs_loaded >= 5);
  CHECK(results_loaded >= 2);
}

TEST_CASE("the fuzz targets' stand-in ops match the registered ops", "[fuzz]") {
  Registry real;
  register_all_ops(real);
  const Registry fake = stand_ins();
  REQUIRE(fake.ops().size() == real.ops().size());
  for (const auto& op : real.ops()) {
    INFO(op->name());
    const Op* stand_in = fake.find(op->name());
    REQUIRE(stand_in != nullptr);
    CHECK(stand_in->family() == op->family());
    CHECK(stand_in->dtypes() == op->dtypes());
    const std::vector<VariantInfo> variants = op->variants(), stand_in_variants = stand_in->variants();
    REQUIRE(stand_in_variants.size() == variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
      INFO(variants[i].name);
      // Without cuDNN the softmax baseline is the fused kernel under another name.
      if (variants[i].name != "fused_reference") CHECK(stand_in_variants[i].name == variants[i].name);
      CHECK(stand_in_variants[i].role == variants[i].role);
      CHECK(stand_in_variants[i].only_dtypes == variants[i].only_dtypes);
    }
    for (const Shape& shape : std::vector<Shape>{{}, {8}, {8, 8}, {2, 8, 8}, {2, 2, 8, 8}, {65536, 65536, 2}}) {
      INFO(format_shape(shape));
      CHECK(stand_in->reject_shape(shape).empty() == op->reject_shape(shape).empty());
    }
  }
}

TEST_CASE("every kept regression input is refused by its loader", "[fuzz]") {
  // The regressions are inputs once accepted that must not be (a key twice, a row twice, content
  // after the document, a launch shape beyond CUDA's limits) or that once crashed: none loads.
  const Registry registry = stand_ins();
  for (const char* target : {"fuzz_sweep_config", "fuzz_results"}) {
    const std::filesystem::path folder = test::source_path(std::string("tests/fuzz/regressions/") + target);
    if (!std::filesystem::exists(folder)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      INFO(entry.path().string());
      const std::string text = test::read_file(entry.path().string());
      const bool config = std::string(target) == "fuzz_sweep_config";
      CHECK(outcome([&] { config ? fuzz::load_config(text, registry) : fuzz::load_results(text); }) == "InputError");
    }
  }
}
