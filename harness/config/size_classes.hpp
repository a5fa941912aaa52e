#pragma once
/// The seed report's size categories, as named lists of shapes. Host-only.

#include "harness/ops/problem.hpp"

#include <string>
#include <vector>

namespace kbench {

struct SizeClass {
  std::string name;          ///< "small", "medium", "large", "xlarge", "batch"
  std::string description;   ///< for --help and `kbench list`
  std::vector<Shape> shapes; ///< elementwise shapes, outermost first
};

/// All size classes in display order.
const std::vector<SizeClass>& size_classes();

/// The class called `name`, or nullptr.
const SizeClass* find_size_class(const std::string& name);

/// Comma-separated class names, for error messages.
std::string size_class_names();

}  // namespace kbench
