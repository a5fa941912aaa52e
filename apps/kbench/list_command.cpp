#include "list_command.hpp"

#include "source_paths.hpp"

#include "harness/ops/copy_roof.hpp"
#include "harness/common/exit_codes.hpp"
#include "harness/common/json_input.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/config/size_classes.hpp"
#include "harness/config/sweep_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace kbench::cli {

namespace {

void list_configs() {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(configs_dir(), error)) {
    if (entry.path().extension() == ".json" && entry.path().filename() != "thresholds.json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::cout << "Configs (kbench --config FILE; format: configs/README.md) in " << configs_dir() << ":\n";
  if (files.empty()) std::cout << "  none found\n";
  for (const auto& file : files) {
    try {
      const SweepConfig config = load_sweep_config(file.string());
      std::cout << fmt::format("  {:<12} {} ({} problems before filters)\n", printable(file.filename().string()), printable(config.description),
                               problem_count(config));
    } catch (const InputError& e) {
      std::cout << fmt::format("  {:<12} INVALID: {}\n", printable(file.filename().string()), printable(e.what()));
    }
  }
  std::cout << "Thresholds: " << default_thresholds_path() << " (override with --thresholds FILE)\n";
}

}  // namespace

int list_command(const Registry& registry) {
  std::cout << "Ops:\n";
  for (const auto& op : registry.ops()) {
    std::string dtypes;
    for (DType d : op->dtypes()) dtypes += (dtypes.empty() ? "" : ", ") + std::string(dtype_name(d));
    const auto variants = op->variants();
    const std::string op_source = variants.empty() || variants.front().source == "kbench" ? ""
                                                                                          : " (from " + variants.front().source + ")";
    std::cout << fmt::format("  {}: {} [dtypes: {}]{}\n", op->name(), op->summary(), dtypes, op_source);
    for (const VariantInfo& v : variants) {
      const std::string source = v.source == "kbench" ? "" : " (from " + v.source + ")";
      std::cout << fmt::format("    {:<16} {:<9} {}{}\n", v.name, role_name(v.role), v.description, source);
    }
    std::cout << fmt::format("    {:<16} {:<9} {}\n", kCopyRoofVariant, role_name(VariantRole::roof), "cudaMemcpyAsync moving the same bytes");
  }
  std::cout << "Size classes:\n";
  for (const SizeClass& size_class : size_classes()) {
    std::string shapes;
    for (const Shape& s : size_class.shapes) shapes += (shapes.empty() ? "" : ", ") + format_shape(s);
    std::cout << fmt::format("  {:<7} {} ({})\n", size_class.name, shapes, size_class.description);
  }
  std::cout << "Dtypes: fp32, fp16, bf16\n";
  list_configs();
  return exit_code::ok;
}

}  // namespace kbench::cli
