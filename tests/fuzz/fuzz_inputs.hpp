#pragma once
// What one fuzz input goes through, shared by the libFuzzer targets (built with clang, see
// scripts/fuzz.sh) and by test_fuzz_corpus.cpp (built with the host tests), which replays the
// corpus and the regression inputs. Bad input must end in kbench's InputError; any other
// exception, a crash or a sanitizer report is a bug.

#include "harness/ops/registry.hpp"

#include <string>

namespace kbench::fuzz {

/// The file name a fuzz input is loaded as: in a folder that does not exist, so that relative
/// includes find nothing and the result does not depend on the working directory.
inline const std::string kInputFile = "/nonexistent-kbench-fuzz/input.json";

/// The config loader on `text` as a config file's content: parse, then plan against `registry`
/// with no filters and the default --max-cases. Throws InputError on bad input.
void load_config(const std::string& text, const Registry& registry);

/// The results loader on `text` as a results file's content, then everything that reads
/// results: the Markdown and CSV reports, the gate (with the run as its own baseline) and the
/// run comparison. Throws InputError on bad input.
void load_results(const std::string& text);

}  // namespace kbench::fuzz
