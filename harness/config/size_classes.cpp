#include "harness/config/size_classes.hpp"

namespace kbench {

const std::vector<SizeClass>& size_classes() {
  static const std::vector<SizeClass> classes{
      {"small", "65.5K-262K elements: launch overhead dominates", {{256, 256}, {512, 512}}},
      {"medium", "4.2M elements: fits in a Hopper L2 (flushed before each cold sample)", {{2048, 2048}}},
      {"large", "16.8M elements", {{4096, 4096}}},
      {"xlarge", "67M elements", {{8192, 8192}}},
      {"batch", "batched 3-D tensors, 8.4M and 16.8M elements", {{32, 512, 512}, {16, 1024, 1024}}},
  };
  return classes;
}

const SizeClass* find_size_class(const std::string& name) {
  for (const SizeClass& size_class : size_classes()) {
    if (size_class.name == name) return &size_class;
  }
  return nullptr;
}

std::string size_class_names() {
  std::string names;
  for (const SizeClass& size_class : size_classes()) names += size_class.name + ", ";
  return names + "all";
}

}  // namespace kbench
