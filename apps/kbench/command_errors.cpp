#include "command_errors.hpp"

#include "harness/common/exit_codes.hpp"
#include "harness/common/input_error.hpp"
#include "harness/common/output_error.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/device/device_setup.hpp"

#include <iostream>
#include <stdexcept>

namespace kbench::cli {

int fail(std::string_view command, int code, const std::string& message) {
  // Messages quote input (file names, JSON strings, option values): its control characters are
  // escaped here, once, so that no input can forge a line or drive the terminal.
  std::cerr << "kbench" << (command.empty() ? "" : " ") << command << ": error: " << printable(message) << '\n';
  return code;
}

std::string plain_parse_message(const std::string& message) {
  const std::string at_most = ": At Most 1 required but received ";
  const std::size_t at = message.find(at_most);
  if (at == std::string::npos) return message;
  const std::string count = message.substr(at + at_most.size());
  if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos) return message;
  return message.substr(0, at) + " is given " + count + " times; expected it once";
}

int exit_code_for(const std::exception& error) {
  if (dynamic_cast<const InputError*>(&error) || dynamic_cast<const std::invalid_argument*>(&error)) {
    return exit_code::usage;
  }
  if (dynamic_cast<const OutputError*>(&error)) return exit_code::output_failed;
  if (dynamic_cast<const NoDeviceError*>(&error)) return exit_code::no_device;
  if (dynamic_cast<const UnsupportedArchitectureError*>(&error)) return exit_code::unsupported_architecture;
  return exit_code::case_failed;
}

int fail(std::string_view command, const std::exception& error) {
  return fail(command, exit_code_for(error), error.what());
}

void flush_standard_output() {
  std::cout.flush();
  if (!std::cout) throw OutputError("standard output: writing failed (a full device or a closed pipe?)");
}

}  // namespace kbench::cli
