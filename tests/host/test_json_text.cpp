#include "harness/common/json_text.hpp"
#include "support/catch.hpp"

#include <cstdio>
#include <fstream>

using namespace kbench;

namespace {
/// The InputError message for `text`, or "no error".
std::string syntax_error(const std::string& text) {
  try {
    parse_json_text(text, "in.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("JSON text parses into a document", "[json_text]") {
  CHECK(parse_json_text(R"({"a": [1, 2.5, "x"]})", "in.json")["a"][1] == 2.5);
}

TEST_CASE("text that is not JSON is reported with its line and column", "[json_text]") {
  CHECK(syntax_error("{\n  \"a\": [4,]\n}") ==
        "in.json: not valid JSON at line 2, column 11: syntax error while parsing value - unexpected ']'; expected "
        "'[', '{', or a literal");
  // Empty input: nlohmann/json's own wording differs between 3.11 releases (Debian 12's "unexpected end
  // of input", Ubuntu 24.04's "attempting to parse an empty input"); the place is what kbench adds.
  CHECK(contains(syntax_error(""), "in.json: not valid JSON at line 1, column 1: "));
  // Truncated: the place is the end of the text.
  CHECK(contains(syntax_error("{\"a\":\n [1, 2"), "in.json: not valid JSON at line 2, column 7: "));
  CHECK(contains(syntax_error("[1] [2]"), "at line 1, column 5: syntax error while parsing value - unexpected '['; expected end of input"));
  CHECK(contains(syntax_error("not json"), "at line 1, column 2: syntax error while parsing value - invalid literal"));
}

TEST_CASE("NaN, Infinity and numbers beyond a double are named", "[json_text]") {
  CHECK(contains(syntax_error("{\"t\": NaN}"), "at line 1, column 7: syntax error while parsing value - invalid literal; "
                                              "last read: '\"t\": N' (NaN and Infinity are not JSON numbers)"));
  CHECK(contains(syntax_error("[\n Infinity]"), "at line 2, column 2:"));
  CHECK(contains(syntax_error("[\n Infinity]"), "(NaN and Infinity are not JSON numbers)"));
  // nlohmann's own exception carries no place for this one: it is found again.
  CHECK(syntax_error("[1,\n  1e400]") == "in.json: not valid JSON at line 2, column 7: number overflow parsing '1e400'");
}

TEST_CASE("files are read whole; folders and missing files are named", "[json_text]") {
  const std::string path = "kbench_test_json_text.json";
  std::ofstream(path) << "{\"a\": 1}";
  CHECK(read_json_file(path)["a"] == 1);
  std::remove(path.c_str());
  CHECK_THROWS_WITH(read_json_file(path), path + ": cannot open for reading");
  CHECK_THROWS_WITH(read_json_file("."), ".: is a folder; expected a JSON file");
}
