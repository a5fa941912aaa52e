#include "device_command.hpp"

#include "run_command.hpp"

#include "harness/report/console_reporter.hpp"
#include "harness/common/exit_codes.hpp"
#include "harness/measure/session.hpp"

#include <iostream>

namespace kbench::cli {

int device_command(const Options& options) {
  std::string warning;
  const DeviceInfo device = open_device(options.device, options.peaks, warning);
  print_device(std::cout, device);
  if (!warning.empty()) std::cout << "WARNING: " << warning << '\n';
  print_build_warnings(std::cout);
  return exit_code::ok;
}

}  // namespace kbench::cli
