#pragma once
/// What a variant is to its op: one of kbench's kernels, the baseline that speed ratios divide
/// by, or the copy roof. Host-only (no CUDA): the results model and reporters use it too.

#include "harness/common/enum_names.hpp"

#include "kbench/types.hpp"

#include <array>
#include <string_view>

namespace kbench {


template <>
struct EnumNames<VariantRole> {
  static constexpr std::array<EnumName<VariantRole>, 3> table{
      {{VariantRole::own, "own"}, {VariantRole::baseline, "baseline"}, {VariantRole::roof, "roof"}}};
};

/// "own", "baseline" or "roof".
constexpr std::string_view role_name(VariantRole role) { return enum_name(role); }

}  // namespace kbench
