#pragma once
/// The measurement modes (harness/measure/measure.hpp says what each one times). Host-only.

#include "harness/common/enum_names.hpp"

#include <array>
#include <string_view>

namespace kbench {

enum class MeasureMode {
  cold,   ///< L2 flushed, one call per event pair, queued behind a blocking kernel
  hot,    ///< CUDA-graph replay of back-to-back calls
  eager,  ///< one event pair per call, as a framework runs it
};

/// In measurement order.
template <>
struct EnumNames<MeasureMode> {
  static constexpr std::array<EnumName<MeasureMode>, 3> table{
      {{MeasureMode::cold, "cold"}, {MeasureMode::hot, "hot"}, {MeasureMode::eager, "eager"}}};
};

/// "cold", "hot" or "eager".
constexpr std::string_view mode_name(MeasureMode mode) { return enum_name(mode); }

}  // namespace kbench
