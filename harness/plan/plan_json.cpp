#include "harness/plan/plan_json.hpp"

#include "harness/common/file_output.hpp"
#include "harness/common/json_fields.hpp"
#include "harness/ops/copy_roof.hpp"
#include "harness/results/results_json.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

namespace kbench {

using nlohmann::json;

namespace {

/// A row a config's skip removes, with the skip's reason.
struct SkippedRow {
  VariantInfo variant;
  std::string reason;
};

/// One case (op x shape x dtype) as the document lists it.
struct PlanCase {
  std::string op;
  Shape shape;
  std::string dtype;
  std::string size_class;
  std::int64_t elements = 0;
  Traffic traffic;
  std::vector<VariantInfo> rows;          ///< to run, in run order
  std::vector<SkippedRow> skipped_rows;   ///< skipped by the config
  std::optional<std::string> reason;      ///< only for a case none of whose rows runs
};

struct PlanDocument {
  const PlanHeader* header = nullptr;
  std::vector<PlanCase> cases;
  std::vector<PlanCase> skipped_cases;
};

// ---- the tables: one row per key, in the order PLAN_SCHEMA.md lists them ---------------------
// Plans are written, never read, by kbench: the rows have no reader.

template <typename Struct>
JsonField<Struct> written(std::string key, std::function<json(const Struct&)> write) {
  return {std::move(key), std::move(write), nullptr};
}

const JsonFields<VariantInfo>& row_fields() {
  static const JsonFields<VariantInfo> fields{
      written<VariantInfo>("variant", [](const VariantInfo& v) { return json(v.name); }),
      written<VariantInfo>("role", [](const VariantInfo& v) { return json_value(v.role); }),
      written<VariantInfo>("source", [](const VariantInfo& v) { return json(v.source); }),
      written<VariantInfo>("kernels_per_call", [](const VariantInfo& v) { return json(v.kernels_per_call); }),
      written<VariantInfo>("description", [](const VariantInfo& v) { return json(v.description); }),
  };
  return fields;
}

const JsonFields<SkippedRow>& skipped_row_fields() {
  static const JsonFields<SkippedRow> fields{
      written<SkippedRow>("variant", [](const SkippedRow& s) { return json(s.variant.name); }),
      written<SkippedRow>("role", [](const SkippedRow& s) { return json_value(s.variant.role); }),
      written<SkippedRow>("reason", [](const SkippedRow& s) { return json(s.reason); }),
  };
  return fields;
}

const JsonFields<PlanCase>& case_fields() {
  static const JsonFields<PlanCase> fields{
      written<PlanCase>("op", [](const PlanCase& c) { return json(c.op); }),
      written<PlanCase>("shape", [](const PlanCase& c) { return json(c.shape); }),
      written<PlanCase>("dtype", [](const PlanCase& c) { return json(c.dtype); }),
      written<PlanCase>("size_class", [](const PlanCase& c) { return json(c.size_class); }),
      written<PlanCase>("elements", [](const PlanCase& c) { return json(c.elements); }),
      written<PlanCase>("traffic", [](const PlanCase& c) { return write_fields(c.traffic, traffic_fields()); }),
      json_list("rows", &PlanCase::rows, &row_fields),
      json_list("skipped_rows", &PlanCase::skipped_rows, &skipped_row_fields),
      written<PlanCase>("reason", [](const PlanCase& c) { return c.reason ? json(*c.reason) : json(json::value_t::discarded); }),
  };
  return fields;
}

const JsonFields<PlanDocument>& document_fields() {
  static const JsonFields<PlanDocument> fields{
      written<PlanDocument>("plan_schema_version", [](const PlanDocument&) { return json(kPlanSchemaVersion); }),
      written<PlanDocument>("kind", [](const PlanDocument&) { return json(kPlanKind); }),
      written<PlanDocument>("kbench", [](const PlanDocument& d) { return write_fields(d.header->build, build_fields()); }),
      written<PlanDocument>("command_line", [](const PlanDocument& d) { return json(d.header->command_line); }),
      written<PlanDocument>("config", [](const PlanDocument& d) { return json_value(d.header->config); }),
      written<PlanDocument>("seed", [](const PlanDocument& d) { return json_value(d.header->seed); }),
      written<PlanDocument>("settings", [](const PlanDocument& d) { return settings_to_json(d.header->settings); }),
      written<PlanDocument>("thresholds", [](const PlanDocument& d) { return d.header->thresholds; }),
      written<PlanDocument>("plan", [](const PlanDocument& d) {
        return d.header->identity ? plan_identity_to_json(*d.header->identity) : json(json::value_t::discarded);
      }),
      json_list("cases", &PlanDocument::cases, &case_fields),
      json_list("skipped_cases", &PlanDocument::skipped_cases, &case_fields),
  };
  return fields;
}

// ---- from the plan to the document's cases -----------------------------------------------------

PlanCase case_of(const PlanEntry& entry) {
  PlanCase c;
  c.op = entry.op->name();
  c.shape = entry.problem.shape;
  c.dtype = std::string(dtype_name(entry.problem.dtype));
  c.size_class = entry.problem.size_class;
  c.elements = element_count(entry.problem.shape);
  c.traffic = entry.op->traffic(entry.problem);
  return c;
}

/// The entry's rows in the order a run runs them: its variants, then the copy roof.
std::vector<VariantInfo> rows_of(const PlanEntry& entry) {
  const std::vector<VariantInfo> variants = entry.op->variants();
  std::vector<VariantInfo> rows;
  for (std::size_t i : entry.variants) rows.push_back(variants[i]);
  if (entry.copy_roof) rows.push_back(copy_roof_variant());
  return rows;
}

bool same_case(const PlanCase& c, const PlanEntry& entry) {
  return c.op == entry.op->name() && c.shape == entry.problem.shape && c.dtype == dtype_name(entry.problem.dtype);
}

/// The reasons of a case's skipped rows, each once, joined by "; ".
std::string joined_reasons(const std::vector<SkippedRow>& rows) {
  std::vector<std::string> reasons;
  for (const SkippedRow& row : rows)
    if (std::find(reasons.begin(), reasons.end(), row.reason) == reasons.end()) reasons.push_back(row.reason);
  std::string text;
  for (const std::string& reason : reasons) text += (text.empty() ? "" : "; ") + reason;
  return text;
}

PlanDocument document_of(const Plan& plan, const PlanHeader& header) {
  PlanDocument document;
  document.header = &header;
  for (const PlanEntry& entry : plan.entries) {
    document.cases.push_back(case_of(entry));
    document.cases.back().rows = rows_of(entry);
  }
  for (const SkippedEntry& skipped : plan.skipped) {
    const auto find_in = [&](std::vector<PlanCase>& list) {
      return std::find_if(list.begin(), list.end(), [&](const PlanCase& c) { return same_case(c, skipped.entry); });
    };
    auto target = find_in(document.cases);
    if (target == document.cases.end()) {
      target = find_in(document.skipped_cases);
      if (target == document.skipped_cases.end()) {
        document.skipped_cases.push_back(case_of(skipped.entry));
        target = document.skipped_cases.end() - 1;
      }
    }
    for (const VariantInfo& row : rows_of(skipped.entry)) target->skipped_rows.push_back({row, skipped.reason});
  }
  for (PlanCase& c : document.skipped_cases) c.reason = joined_reasons(c.skipped_rows);
  return document;
}

}  // namespace

json plan_to_json(const Plan& plan, const PlanHeader& header) {
  return write_fields(document_of(plan, header), document_fields());
}

void write_plan_file(const Plan& plan, const PlanHeader& header, const std::string& path) {
  write_file_atomically(path, plan_to_json(plan, header).dump(2) + '\n');
}

}  // namespace kbench
