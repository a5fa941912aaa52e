#pragma once
/// How every kbench command ends on an error: one line on stderr, and an exit code chosen by the
/// kind of error (README: Exit codes), never by which command met it.
///
///   InputError, std::invalid_argument (a bad option, config or input file)  2
///   NoDeviceError                                                           3
///   UnsupportedArchitectureError                                            4
///   OutputError (a results file, report or stdout not written)              5
///   anything else (a CUDA error outside a case, an internal error)          1

#include <exception>
#include <string>
#include <string_view>

namespace kbench::cli {

/// Prints "kbench[ COMMAND]: error: MESSAGE" and returns `code`. `command` is empty for the
/// main command, else the subcommand's name.
int fail(std::string_view command, int code, const std::string& message);

/// The exit code for `error`, by its kind (table above).
int exit_code_for(const std::exception& error);

/// Prints `error` as fail() does and returns exit_code_for(error).
int fail(std::string_view command, const std::exception& error);

/// CLI11's parse message in kbench's words where CLI11's own is jargon: "--op: At Most 1 required
/// but received 2" becomes "--op is given 2 times; expected it once". Other messages pass unchanged.
std::string plain_parse_message(const std::string& message);

/// Flushes standard output; OutputError when anything written to it was lost (a full device, a
/// closed pipe), so that a command whose output went nowhere does not report success.
void flush_standard_output();

}  // namespace kbench::cli
