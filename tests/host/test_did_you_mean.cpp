#include "harness/common/did_you_mean.hpp"
#include "support/catch.hpp"

using namespace kbench;

TEST_CASE("edit distance counts insertions, deletions and substitutions", "[did_you_mean]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("shape", "shape") == 0);
  CHECK(edit_distance("shapes", "shape") == 1);
  CHECK(edit_distance("sahpe", "shape") == 2);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("suggestions only for close names", "[did_you_mean]") {
  const std::vector<std::string> keys{"op", "size_class", "shape", "axes", "zip", "dtypes", "variants"};
  CHECK(closest_match("shapes", keys) == "shape");
  CHECK(closest_match("dtype", keys) == "dtypes");
  CHECK(closest_match("sizeclass", keys) == "size_class");
  CHECK(closest_match("completely_else", keys).empty());
  CHECK(did_you_mean("varients", keys) == " (did you mean 'variants'?)");
  CHECK(did_you_mean("xyzzy", keys).empty());
  CHECK(join_names({"a", "b", "c"}) == "a, b, c");
}
