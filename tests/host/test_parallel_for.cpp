// Host loops on several threads (harness/common/parallel_for.hpp): every index once, errors
// rethrown, and the inputs, references and comparisons they compute the same on any thread count.
#include "harness/common/parallel_for.hpp"
#include "harness/ops/host_tensor.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/matmul/matmul_reference.hpp"
#include "kernels/softmax/softmax_reference.hpp"
#include "kernels/sum/reduction_reference.hpp"
#include "support/catch.hpp"

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

using namespace kbench;

namespace {

/// Runs `f` with KBENCH_HOST_THREADS set to `threads`, then restores the variable.
template <typename F>
auto with_threads(int threads, F&& f) {
  const char* old = std::getenv("KBENCH_HOST_THREADS");
  const std::string saved = old ? old : "";
  setenv("KBENCH_HOST_THREADS", std::to_string(threads).c_str(), 1);
  auto result = f();
  if (old) {
    setenv("KBENCH_HOST_THREADS", saved.c_str(), 1);
  } else {
    unsetenv("KBENCH_HOST_THREADS");
  }
  return result;
}

}  // namespace

TEST_CASE("parallel_for visits every index exactly once, in chunks of the grain", "[parallel_for]") {
  for (const std::int64_t count : {0, 1, 7, 1000, 65537}) {
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(count));
    std::atomic<std::int64_t> chunks{0};
    with_threads(8, [&] {
      parallel_for(count, 100, [&](std::int64_t begin, std::int64_t end) {
        CHECK(begin % 100 == 0);
        CHECK(end - begin <= 100);
        ++chunks;
        for (std::int64_t i = begin; i < end; ++i) ++seen[static_cast<std::size_t>(i)];
      });
      return 0;
    });
    INFO(count);
    CHECK(chunks == chunk_count(count, 100));
    for (const auto& s : seen) CHECK(s == 1);
  }
}

TEST_CASE("parallel_for rethrows the first error a chunk throws", "[parallel_for]") {
  const auto run = [] {
    parallel_for(1000, 10, [](std::int64_t begin, std::int64_t) {
      if (begin == 500) throw std::runtime_error("chunk 50 failed");
    });
    return 0;
  };
  CHECK_THROWS_WITH(with_threads(4, run), "chunk 50 failed");
  CHECK_THROWS_WITH(with_threads(1, run), "chunk 50 failed");
}

TEST_CASE("inputs are the same stream as one thread drawing them one by one", "[parallel_for]") {
  // The first values of the stream, as the serial SplitMix64 draws them.
  std::uint64_t state = 42;
  std::vector<float> serial;
  for (int i = 0; i < 5; ++i) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    serial.push_back(-1.0f + 2.0f * (static_cast<float>(z >> 40) * (1.0f / 16777216.0f)));
  }
  const std::size_t n = 300001;  // several chunks and a short last one
  for (const DType dtype : {DType::f32, DType::f16, DType::bf16}) {
    const HostTensor one = with_threads(1, [&] { return random_tensor(dtype, n, 42, -1, 1); });
    const HostTensor many = with_threads(8, [&] { return random_tensor(dtype, n, 42, -1, 1); });
    CHECK(one.bytes == many.bytes);
    CHECK(one.values == many.values);
    if (dtype == DType::f32) {
      for (std::size_t i = 0; i < serial.size(); ++i) CHECK(one.values[i] == serial[i]);
    }
    const std::vector<float> decoded = with_threads(8, [&] { return decode_to_float(dtype, many.bytes.data(), n); });
    CHECK(decoded == one.values);
  }
}

TEST_CASE("references and comparisons are the same on any thread count", "[parallel_for]") {
  const HostTensor x = random_tensor(DType::f32, 7 * 65537, 7, -4, 4);
  const auto rows_ref = [&] { return sum::reference_rows(x.values, 7, 65537, sum::Reduction::sum).values; };
  const auto cols_ref = [&] { return sum::reference_columns(x.values, 65537, 7).values; };
  const auto full_ref = [&] { return sum::reference_full(x.values).values; };
  const auto softmax_ref = [&] { return softmax::reference_softmax(x.values, 65537, 7); };
  CHECK(with_threads(1, rows_ref) == with_threads(8, rows_ref));
  CHECK(with_threads(1, cols_ref) == with_threads(8, cols_ref));
  CHECK(with_threads(1, full_ref) == with_threads(8, full_ref));
  CHECK(with_threads(1, softmax_ref) == with_threads(8, softmax_ref));
  // matmul: whole rows in tiles of rows × columns (37 rows, 300 columns: partial tiles both ways;
  // 3 rows: wider tiles), and sampled Cs whose other elements are taken in chunks by column (the
  // last column of 100000x8 holds most of them).
  for (const auto& [m, n, k] :
       {std::array<std::int64_t, 3>{37, 300, 41}, {3, 2000, 70}, {300, 4000, 37}, {100000, 8, 30}}) {
    const HostTensor a = random_tensor(DType::f32, static_cast<std::size_t>(m * k), 11, -1, 1);
    const HostTensor b = random_tensor(DType::f32, static_cast<std::size_t>(k * n), 12, -1, 1);
    const auto positions = matmul::sample_positions(m, n, 3);
    const auto matmul_ref = [&] { return matmul::reference_at(a.values, b.values, m, n, k, positions); };
    const matmul::ReferenceValues one = with_threads(1, matmul_ref), many = with_threads(8, matmul_ref);
    CHECK(one.value == many.value);
    CHECK(one.scale == many.scale);
  }

  // A comparison with mismatches in two chunks: the first one and the count are found either way.
  std::vector<double> reference(x.values.begin(), x.values.end());
  std::vector<float> output = x.values;
  output[70000] += 1.0f;
  output[300000] = NAN;
  const auto compare = [&] { return compare_with_reference(output, reference, {1e-6, 1e-6}, {}); };
  const Verification one = with_threads(1, compare), many = with_threads(8, compare);
  CHECK(one.mismatches == 2);
  CHECK(many.mismatches == 2);
  CHECK(one.first_mismatch == 70000);
  CHECK(many.first_mismatch == 70000);
  CHECK(one.max_abs_error == many.max_abs_error);
  CHECK(one.rel_l2_error == many.rel_l2_error);
  CHECK(one.message == many.message);
}
