#include "harness/common/enum_names.hpp"
#include "harness/config/measure_mode.hpp"
#include "harness/results/results.hpp"
#include "support/catch.hpp"

using namespace kbench;

TEST_CASE("closed sets: one name table each, both ways", "[enums]") {
  static_assert(enum_name(MeasureMode::hot) == "hot");
  CHECK(enum_name(RunState::context_lost) == "context_lost");
  CHECK(enum_from_name<Bound>("compute") == Bound::compute);
  CHECK_FALSE(enum_from_name<Band>("Good"));
  CHECK(enum_names_text<CaseStatus>() == "passed, incorrect, error or skipped");
  CHECK(parse_enum<VariantRole>("roof", "role") == VariantRole::roof);
  try {
    parse_enum<VariantRole>("star", "role");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "unknown role 'star'; expected own, baseline or roof");
  }
  for (const auto& row : EnumNames<Band>::table) CHECK(enum_from_name<Band>(enum_name(row.value)) == row.value);
}
