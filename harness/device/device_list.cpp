#include "harness/device/device_list.hpp"

#include "harness/common/split_list.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace kbench {

DeviceList parse_device_list(const std::string& text) {
  DeviceList list;
  const std::vector<std::string> items = split_list(text);
  if (items.size() == 1 && items[0] == "all") {
    list.all = true;
    return list;
  }
  if (items.empty()) throw std::invalid_argument("--devices is '" + text + "'; expected 'all' or GPU indices such as 0,2,3");
  for (const std::string& item : items) {
    int index = -1;
    const char* const end = item.data() + item.size();
    const auto [last, error] = std::from_chars(item.data(), end, index);
    if (error != std::errc() || last != end || index < 0) {
      throw std::invalid_argument("--devices: '" + item + "' is not a GPU index; expected 'all' or indices >= 0 such as 0,2,3");
    }
    if (std::find(list.indices.begin(), list.indices.end(), index) != list.indices.end()) {
      throw std::invalid_argument("--devices: GPU " + item + " is given twice; expected each GPU once (one worker per GPU)");
    }
    list.indices.push_back(index);
  }
  return list;
}

std::vector<int> resolve_device_list(const DeviceList& list, int count) {
  if (list.all) {
    std::vector<int> every(static_cast<std::size_t>(std::max(count, 0)));
    for (int i = 0; i < count; ++i) every[static_cast<std::size_t>(i)] = i;
    return every;
  }
  for (int index : list.indices) {
    if (index >= count) {
      throw std::invalid_argument("--devices: GPU " + std::to_string(index) + " does not exist; this host has " +
                                  std::to_string(count) + " (indices 0 to " + std::to_string(count - 1) + ")");
    }
  }
  return list.indices;
}

}  // namespace kbench
