#pragma once
/// Reading CMAKE_CUDA_ARCHITECTURES lists ("80-real,90-real,90-virtual"). Host-only.

#include <string>

namespace kbench {

/// True when the list holds machine code (SASS) for compute capability `cc` (e.g. 90): an entry
/// "90", "90-real", "90a" or "90a-real", or a catch-all such as "all" or "native".
bool has_machine_code_for(const std::string& architectures, int cc);

/// True when the list holds PTX that a device of compute capability `cc` can JIT-compile: an
/// entry "NN" or "NN-virtual" with NN <= cc (arch-specific "a" PTX does not carry forward).
bool has_ptx_for(const std::string& architectures, int cc);

}  // namespace kbench
