#pragma once
/// Guards for the files reports write: a report never writes over its input.

#include <string>
#include <vector>

namespace kbench::cli {

/// True when `a` and `b` name the same file (or would, once created).
bool same_file(const std::string& a, const std::string& b);

/// Throws std::invalid_argument when `output` is one of `inputs`, or exists and is not a regular
/// file: a report never replaces a device, a FIFO or a folder.
void refuse_overwrite(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace kbench::cli
