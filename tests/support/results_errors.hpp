#pragma once
// Host tests of the results file: the one-line error a document is refused with.

#include "harness/results/results_json.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kbench::test {

/// The InputError results_from_json throws for `document`, or "no error".
inline std::string parse_error(const nlohmann::json& document) {
  try {
    results_from_json(document);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace kbench::test
