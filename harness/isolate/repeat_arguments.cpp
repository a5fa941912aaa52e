#include "harness/isolate/repeat_arguments.hpp"

#include <string_view>

namespace kbench {

std::vector<std::string> repeat_worker_arguments(const std::vector<std::string>& parent_args) {
  const auto dropped = [](std::string_view arg) { return arg == "--repeat" || arg == "--keep-samples"; };
  const auto dropped_with_equals = [](std::string_view arg) {
    return arg.rfind("--repeat=", 0) == 0 || arg.rfind("--keep-samples=", 0) == 0;
  };
  std::vector<std::string> args;
  for (std::size_t i = 0; i < parent_args.size(); ++i) {
    if (dropped(parent_args[i])) {
      ++i;  // and its value
    } else if (!dropped_with_equals(parent_args[i])) {
      args.push_back(parent_args[i]);
    }
  }
  args.insert(args.end(), {"--keep-samples", "1"});
  return args;
}

}  // namespace kbench
