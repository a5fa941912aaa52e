#pragma once
/// Writing an output file so that a reader never sees half of it. Host-only.

#include <string>

namespace kbench {

/// Writes `text` to `path` through a temporary file beside it (PATH.tmp.XXXXXX, created
/// exclusively), renamed over `path` once the whole text is on disk. Throws OutputError naming
/// the file (no folder, no space, failed rename); the temporary file is removed on failure and
/// `path` is left as it was.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace kbench
