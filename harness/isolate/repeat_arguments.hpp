#pragma once
/// The command line of a `--repeat` worker: it must keep every mode's samples, for the parent to
/// pool them (harness/results/pooled_rows.hpp) and then keep what the run's --keep-samples says.
/// Host-only.

#include <string>
#include <vector>

namespace kbench {

/// `parent_args` less --repeat and --keep-samples (with their values, as "--opt value" or
/// "--opt=value"), then --keep-samples 1.
std::vector<std::string> repeat_worker_arguments(const std::vector<std::string>& parent_args);

}  // namespace kbench
