#pragma once
// The size classes the GPU tests check, after KBENCH_TEST_SIZE_CLASSES: a comma-separated list
// (e.g. "small,medium") that keeps the full-size shapes out of slow runs such as
// compute-sanitizer's; unset, every class. The odd shapes each test lists are always checked.
#include "harness/size_classes.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

inline std::vector<kbench::SizeClass> size_classes_to_test() {
  const char* wanted = std::getenv("KBENCH_TEST_SIZE_CLASSES");
  if (wanted == nullptr || *wanted == '\0') return kbench::size_classes();
  std::vector<std::string> names;
  std::stringstream list(wanted);
  for (std::string name; std::getline(list, name, ',');) names.push_back(name);
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
