#pragma once
/// --devices: which of a host's GPUs a run spreads its cases over. Host-only: the list is checked
/// for form before anything is read, and against the host's GPU count before any work.

#include <string>
#include <vector>

namespace kbench {

/// "all", or CUDA device indices.
struct DeviceList {
  bool all = false;
  std::vector<int> indices;  ///< as given, each once; empty with `all`
};

/// Parses "all" or comma-separated indices ("0,2,3"). Throws std::invalid_argument naming the
/// item that is not an index >= 0 or is given twice.
DeviceList parse_device_list(const std::string& text);

/// The indices to use on a host with `count` GPUs: every one for "all", else the list. Throws
/// std::invalid_argument naming an index the host does not have.
std::vector<int> resolve_device_list(const DeviceList& list, int count);

}  // namespace kbench
