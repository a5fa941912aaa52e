#include "harness/isolate/worker_command_line.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace kbench {

namespace {

/// Options the parent alone acts on: its results file, its seed, and isolation itself.
constexpr std::array<std::string_view, 2> kDroppedWithValue{"--json", "--seed"};
constexpr std::array<std::string_view, 3> kDroppedFlags{"--force", "--isolate", "--no-isolate"};

template <std::size_t N>
bool is_one_of(std::string_view arg, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), arg) != names.end();
}

/// "--json" for "--json=out.json"; the argument itself otherwise.
std::string_view option_part(std::string_view arg) {
  const std::size_t equals = arg.find('=');
  return arg.rfind("--", 0) == 0 && equals != std::string_view::npos ? arg.substr(0, equals) : arg;
}

}  // namespace

std::vector<std::string> worker_arguments(const std::string& program, const std::vector<std::string>& parent_args,
                                          const WorkerTask& task) {
  std::vector<std::string> args{program};
  for (std::size_t i = 0; i < parent_args.size(); ++i) {
    const std::string& arg = parent_args[i];
    if (is_one_of(arg, kDroppedWithValue)) {
      ++i;  // and its value
      continue;
    }
    if (is_one_of(option_part(arg), kDroppedWithValue) || is_one_of(arg, kDroppedFlags)) continue;
    args.push_back(arg);
  }
  args.insert(args.end(), {"--seed", std::to_string(task.seed), kWorkerCaseOption, std::to_string(task.case_index),
                           kWorkerFirstRowOption, std::to_string(task.first_row), kWorkerRowsOption, task.rows_path,
                           kWorkerHeartbeatOption, task.heartbeat_path});
  return args;
}

}  // namespace kbench
