#include "harness/ops/problem.hpp"
#include "support/catch.hpp"

#include <stdexcept>

using namespace kbench;

TEST_CASE("shapes parse from text and print back", "[problem]") {
  CHECK(parse_shape("4096x4096") == Shape{4096, 4096});
  CHECK(parse_shape("32x512x512") == Shape{32, 512, 512});
  CHECK(parse_shape("65536") == Shape{65536});
  CHECK(format_shape({16, 1024, 1024}) == "16x1024x1024");
  CHECK(element_count({16, 1024, 1024}) == 16777216);
}

TEST_CASE("bad shapes are rejected with the offending text", "[problem]") {
  auto message = [](const std::string& text) {
    try {
      parse_shape(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(contains(message("0x5"), "extent 0 must be >= 1"));
  CHECK(contains(message("-3"), "extent -3 must be >= 1"));
  CHECK(contains(message("4xabc"), "'abc' is not an integer extent"));
  CHECK(contains(message("4x"), "'' is not an integer extent"));
  CHECK(contains(message("99999999999x99999999999"), "overflow"));
  CHECK_THROWS_AS(element_count({}), std::invalid_argument);
}

TEST_CASE("element counts print as the seed report writes them", "[problem]") {
  CHECK(format_count(65536) == "65.5K");
  CHECK(format_count(4194304) == "4.2M");
  CHECK(format_count(16777216) == "16.8M");
  CHECK(format_count(67108864) == "67.1M");
  CHECK(format_count(7) == "7");
}
