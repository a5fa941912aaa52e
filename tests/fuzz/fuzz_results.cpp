// libFuzzer target: bytes as the content of a results file, through the results loader and
// everything that reads results (tests/fuzz/fuzz_inputs.hpp). Built and run by scripts/fuzz.sh.
#include "fuzz/fuzz_inputs.hpp"

#include "harness/common/input_error.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    kbench::fuzz::load_results(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const kbench::InputError&) {
    // Rejected with kbench's own error: what bad input should do. Anything else escapes and
    // libFuzzer reports it.
  }
  return 0;
}
