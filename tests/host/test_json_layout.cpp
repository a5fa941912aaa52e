// The layout of the JSON kbench writes: dump(2)'s indents, arrays of numbers on one line.
#include "harness/common/json_layout.hpp"
#include "support/catch.hpp"

using namespace kbench;
using nlohmann::json;

TEST_CASE("arrays of numbers stay on one line, everything else is indented as dump(2)", "[json_layout]") {
  const json document = json::parse(R"({"samples_ms": [0.004672, 0.00512, 1e-06], "shape": [4096, 17],
      "name": "a\"b\u00e9", "empty": [], "none": {}, "mixed": [1, "x"], "nested": [[1, 2], [3]],
      "row": {"flag": true, "value": null}})");
  const std::string text = dump_with_number_arrays_inline(document);
  CHECK(text.find("\"samples_ms\": [0.004672, 0.00512, 1e-06]") != std::string::npos);
  CHECK(text.find("\"shape\": [4096, 17]") != std::string::npos);
  CHECK(text.find("\"empty\": []") != std::string::npos);
  CHECK(text.find("\"none\": {}") != std::string::npos);
  CHECK(text.find("\"mixed\": [\n    1,\n    \"x\"\n  ]") != std::string::npos);
  CHECK(text.find("\"nested\": [\n    [1, 2],\n    [3]\n  ]") != std::string::npos);
  CHECK(text.find("\"row\": {\n    \"flag\": true,\n    \"value\": null\n  }") != std::string::npos);
  CHECK(json::parse(text) == document);
}

TEST_CASE("without arrays of numbers the layout is nlohmann's dump(2)", "[json_layout]") {
  const json document = json::parse(R"({"a": {"b": ["x", {"c": -1.5}], "d": false}, "e": "\u0001"})");
  CHECK(dump_with_number_arrays_inline(document) == document.dump(2));
  CHECK(dump_with_number_arrays_inline(json(3.25)) == "3.25");
}
