// libFuzzer target: bytes as the content of a sweep config file, through parsing and planning
// (tests/fuzz/fuzz_inputs.hpp). Built and run by scripts/fuzz.sh.
#include "fuzz/fuzz_inputs.hpp"
#include "fuzz/stand_in_ops.hpp"

#include "harness/common/input_error.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kbench::Registry registry = [] {
    kbench::Registry stand_ins;
    kbench::fuzz::register_stand_in_ops(stand_ins);
    return stand_ins;
  }();
  try {
    kbench::fuzz::load_config(std::string(reinterpret_cast<const char*>(data), size), registry);
  } catch (const kbench::InputError&) {
    // Rejected with kbench's own error: what bad input should do. Anything else escapes and
    // libFuzzer reports it.
  }
  return 0;
}
