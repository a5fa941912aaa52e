#pragma once
/// kbench's process exit codes (documented in README.md).

namespace kbench::exit_code {
constexpr int ok = 0;
constexpr int case_failed = 1;   ///< a case was INCORRECT or ERROR
constexpr int gate_failed = 1;   ///< `kbench gate`: a case missed its thresholds or regressed
constexpr int usage = 2;         ///< bad option, unknown op/size/dtype/variant, bad config, unusable input file
constexpr int no_device = 3;     ///< no CUDA device or no usable driver
constexpr int unsupported_architecture = 4;  ///< this binary has no code for the GPU's architecture
constexpr int output_failed = 5;  ///< a results file, report or standard output could not be written
constexpr int interrupted = 130;  ///< SIGINT or SIGTERM ended the run; finished rows are on disk
}  // namespace kbench::exit_code
