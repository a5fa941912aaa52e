#include "harness/device/arch_list.hpp"

#include "harness/common/split_list.hpp"

#include <cctype>

namespace kbench {

namespace {

struct ArchEntry {
  int number = -1;         ///< 90 for "90a-real"
  bool arch_specific = false;  ///< the "a" suffix
  bool real = true;        ///< machine code
  bool virtual_ = true;    ///< PTX
  bool catch_all = false;  ///< "all", "all-major", "native"
};

ArchEntry parse_entry(const std::string& text) {
  ArchEntry entry;
  if (text == "all" || text == "all-major" || text == "native") {
    entry.catch_all = true;
    return entry;
  }
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0) return entry;
  entry.number = std::stoi(text.substr(0, i));
  std::string rest = text.substr(i);
  if (!rest.empty() && (rest[0] == 'a' || rest[0] == 'f')) {
    entry.arch_specific = true;
    rest.erase(0, 1);
  }
  if (rest == "-real") entry.virtual_ = false;
  else if (rest == "-virtual") entry.real = false;
  return entry;
}

}  // namespace

bool has_machine_code_for(const std::string& architectures, int cc) {
  for (const std::string& item : split_list(architectures)) {
    const ArchEntry entry = parse_entry(item);
    if (entry.catch_all || (entry.real && entry.number == cc)) return true;
  }
  return false;
}

bool has_ptx_for(const std::string& architectures, int cc) {
  for (const std::string& item : split_list(architectures)) {
    const ArchEntry entry = parse_entry(item);
    if (entry.catch_all) return true;
    if (entry.virtual_ && entry.number > 0 && entry.number <= cc && (!entry.arch_specific || entry.number == cc)) return true;
  }
  return false;
}

}  // namespace kbench
