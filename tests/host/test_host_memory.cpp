// Large host arrays mapped ahead of their first write (harness/common/host_memory.hpp): the
// contents are what a plain resize gives, and mapping pages changes no byte.
#include "harness/common/host_memory.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace kbench;

TEST_CASE("resize_prefaulted keeps the old elements and value-initialises the new ones", "[host_memory]") {
  const std::size_t large = kPrefaultBytes / sizeof(double) + 12345;  // past the threshold, not whole pages
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{4097}, large}) {
    INFO(count);
    const std::vector<double> old{1.5, -2.5, 3.5};
    std::vector<double> grown = old;
    resize_prefaulted(grown, count);
    REQUIRE(grown.size() == count);
    const std::size_t kept = std::min(count, old.size());
    CHECK(std::equal(grown.begin(), grown.begin() + static_cast<std::ptrdiff_t>(kept), old.begin()));
    CHECK(std::all_of(grown.begin() + static_cast<std::ptrdiff_t>(kept), grown.end(), [](double x) { return x == 0.0; }));
  }
  std::vector<std::uint8_t> bytes(100, 7);
  resize_prefaulted(bytes, 10);  // shrinking keeps the first elements
  CHECK(bytes == std::vector<std::uint8_t>(10, 7));
}

TEST_CASE("assign_zeros_prefaulted zeroes a used vector of any size", "[host_memory]") {
  const std::size_t large = kPrefaultBytes / sizeof(float) + 3;
  std::vector<float> values(large, 9.0f);
  assign_zeros_prefaulted(values, large + 5);
  REQUIRE(values.size() == large + 5);
  CHECK(std::all_of(values.begin(), values.end(), [](float x) { return x == 0.0f; }));
  assign_zeros_prefaulted(values, 2);
  CHECK(values == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("prefault_pages changes no byte, on partial pages at either end too", "[host_memory]") {
  std::vector<std::uint8_t> data(kPrefaultBytes + 5000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + 7);
  const std::vector<std::uint8_t> before = data;
  prefault_pages(data.data() + 3, data.size() - 10);
  prefault_pages(data.data(), 0);
  prefault_pages(data.data() + 1, 100);  // inside one page: nothing to map
  CHECK(data == before);
}
