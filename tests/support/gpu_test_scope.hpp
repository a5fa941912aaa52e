#pragma once
// What the GPU tests check, narrowed for slow runs such as compute-sanitizer's by two variables,
// each a comma-separated list; unset, everything is checked, and a narrowed run says so on one line.
//   KBENCH_TEST_SIZE_CLASSES  size classes whose shapes are checked (e.g. "small,medium"); the odd
//                             shapes each test lists are always checked
//   KBENCH_TEST_SKIP_VARIANTS variants left out (e.g. "cublas_gemv": a vendor baseline)
#include "harness/config/size_classes.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

inline std::vector<std::string> split_test_list(const char* text) {
  std::vector<std::string> names;
  std::stringstream list(text);
  for (std::string name; std::getline(list, name, ',');) names.push_back(name);
  return names;
}

inline std::vector<kbench::SizeClass> size_classes_to_test() {
  const char* wanted = std::getenv("KBENCH_TEST_SIZE_CLASSES");
  if (wanted == nullptr || *wanted == '\0') return kbench::size_classes();
  const std::vector<std::string> names = split_test_list(wanted);
  std::vector<kbench::SizeClass> kept;
  for (const kbench::SizeClass& size_class : kbench::size_classes()) {
    for (const std::string& name : names) {
      if (size_class.name == name) kept.push_back(size_class);
    }
  }
  static bool said = false;
  if (!said) {
    std::printf("NOTE: GPU tests check the size classes '%s' only (KBENCH_TEST_SIZE_CLASSES)\n", wanted);
    said = true;
  }
  return kept;
}

/// True when KBENCH_TEST_SKIP_VARIANTS names `variant`.
inline bool variant_skipped_by_env(const std::string& variant) {
  const char* skipped = std::getenv("KBENCH_TEST_SKIP_VARIANTS");
  if (skipped == nullptr || *skipped == '\0') return false;
  static bool said = false;
  if (!said) {
    std::printf("NOTE: GPU tests leave out the variants '%s' (KBENCH_TEST_SKIP_VARIANTS)\n", skipped);
    said = true;
  }
  for (const std::string& name : split_test_list(skipped)) {
    if (name == variant) return true;
  }
  return false;
}
