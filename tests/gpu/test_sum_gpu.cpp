// Every reduction variant (full, inner, outer, inner max) and dtype against the CPU reference in
// double, through the workload's verification (guard bytes, poisoned outputs, two input sets), on
// odd extents (rows of 1, 7 and 1031 elements) and on the size classes; and a variant that writes
// nothing fails.
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/host_tensor.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "support/catch.hpp"
#include "support/row_reduction_check.hpp"
#include "support/verify_variants.hpp"
#include "support/test_variants.hpp"
#include "support/gpu_test_scope.hpp"

#include "kbench/ops/reduction.hpp"
#include "kernels/sum/reduction_reference.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace kbench;

namespace {

using test::fresh_seed;

const Registry& registry() { return test::all_ops(); }

void check_every_variant(const Op& op, const Shape& shape, CudaStream& stream) {
  for (DType dtype : op.dtypes()) {
    const std::uint64_t seed = fresh_seed();
    auto workload = op.prepare({shape, dtype, "test"}, seed);
    const auto variants = op.variants();
    for (std::size_t v = 0; v < variants.size(); ++v) {
      if (variant_skipped_by_env(variants[v].name)) continue;
      INFO(op.name() << " " << variants[v].name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed "
                     << seed);
      const Verification check = workload->verify(v, stream.get());
      INFO(check.message);
      CHECK(check.passed);
    }
  }
}

std::vector<Shape> odd_shapes() {
  // {100, 36} and {20, 36}: whole 8-byte groups of 16-bit columns but not whole 16-byte vectors
  // (the outer sum's cluster path loads 4 columns per thread in every dtype).
  return {{1, 1}, {3, 7}, {5, 1031}, {1031, 7}, {7, 1}, {2, 3, 5}, {4, 512, 896}, {33, 4097}, {1, 70001}, {3000, 13},
          {100, 36}, {20, 36}};
}

/// Checks the named variants of `op` (each must exist) on `shape` in every dtype.
void check_variants(const Op& op, const Shape& shape, const std::vector<std::string>& names, CudaStream& stream) {
  test::verify_variants(op, shape, names, stream);
}

}  // namespace

TEST_CASE("the shape-class kernels and auto match the reference on large odd extents", "[gpu][sum]") {
  // Issue 22's classes with primes and lengths that are no multiple of the vector width, so rows
  // start at every alignment: few long rows (split_row), many short rows (packed_rows), few
  // columns (narrow_columns), 3-D, rows past 1024 whose threads hold fewer than 4 vectors
  // (row_parallel's last loads); outputs poisoned and guarded by the workload's verify.
  CudaStream stream;
  const std::vector<std::string> rows_kernels{"row_parallel", "packed_rows", "flat_rows", "span_rows", "split_row", "auto"};
  for (const char* name : {"sum_inner", "max_inner"}) {
    const Op& op = *registry().find(name);
    for (const Shape& shape : std::vector<Shape>{{3, 1000003}, {1000003, 3}, {7, 262147}, {1048573, 5}, {262147, 64},
                                                 {131, 65}, {2, 131071}, {5, 3, 40961}, {1, 1000003}, {1000003, 1},
                                                 {301, 1571}, {97, 1025}, {33, 3001}, {9, 2047}}) {
      check_variants(op, shape, rows_kernels, stream);
    }
  }
  // split_row's blocks of several 16 KiB tiles (132 SMs): fp32 9x1000003 2 per block (a row in 123
  // blocks, the last of one tile), 37x1000003 4 (fp32 62 blocks a row, 16-bit 31), each ending on
  // a partial tile; 16-bit 9x1000003 stays at 1.
  for (const char* name : {"sum_inner", "max_inner"}) {
    for (const Shape& shape : std::vector<Shape>{{9, 1000003}, {37, 1000003}}) {
      check_variants(*registry().find(name), shape, {"split_row", "auto"}, stream);
    }
  }
  const Op& outer = *registry().find("sum_outer");
  for (const Shape& shape : std::vector<Shape>{{1048573, 7}, {1000003, 3}, {262147, 64}, {131071, 127}, {65537, 129},
                                               {3, 1000003}, {7, 262147}, {1000003, 1}, {3, 5, 33}, {4099, 3, 17}}) {
    check_variants(outer, shape, {"narrow_columns", "column_walk", "auto"}, stream);
  }
  // Many columns, so that auto takes column_walk: odd widths (a column per thread, element loads)
  // and whole vectors (16-byte column groups), rows below and above the walk's 8 rows in flight,
  // and last groups of 1-7 rows (loaded together).
  for (const Shape& shape : std::vector<Shape>{{64, 262147}, {3, 1000003}, {1, 1000003}, {9, 262144}, {17, 131072},
                                               {2, 3, 300007}, {8, 202752}, {31, 300007}, {15, 131072}}) {
    check_variants(outer, shape, {"column_walk", "auto"}, stream);
  }
  // Odd widths past narrow_columns' 128 (column_tiles): rows at every alignment, 1-4 columns per
  // thread, chunks of several tiles and a short last tile; whole vectors and > 1024 (two_stage).
  for (const Shape& shape : std::vector<Shape>{{16, 16384, 257}, {65537, 129}, {40961, 255}, {20011, 511},
                                               {4099, 1000}, {3001, 1023}, {2053, 1024}, {7, 1021}, {1, 131},
                                               {4097, 1031}, {9, 4096}}) {
    check_variants(outer, shape, {"column_tiles", "auto"}, stream);
  }
  const Op& full = *registry().find("sum_full");
  // Tiles per block (132 SMs): 1 at 1000003 and 7x262147 and in 16-bit at 9000011 and 13000007;
  // fp32 9000011 2 and 13000007 3 (each with a partial last tile), 5x3001x2999 4 (a short last block).
  for (const Shape& shape : std::vector<Shape>{{1000003}, {7, 262147}, {9000011}, {13000007}, {5, 3001, 2999}}) {
    check_variants(full, shape, {"auto"}, stream);
  }
}

TEST_CASE("flat_rows matches the reference on every width class, odd and prime", "[gpu][sum][flat_rows]") {
  // Widths below, at and above a 16-byte vector (4 fp32, 8 16-bit elements), rows that cross
  // vectors at every offset, tiles whose last one is short, the 1024-column limit and past it.
  CudaStream stream;
  for (const char* name : {"sum_inner", "max_inner"}) {
    const Op& op = *registry().find(name);
    for (const Shape& shape : std::vector<Shape>{{1000003, 1}, {524287, 2}, {1048573, 3}, {262147, 4}, {131071, 7},
                                                 {131072, 8}, {65537, 9}, {300007, 17}, {262147, 61}, {4099, 63},
                                                 {8191, 100}, {3, 4099, 33}, {2053, 257}, {1031, 1000}, {517, 1023},
                                                 {4099, 1024}, {33, 1025}, {1, 5}, {7, 1}, {9, 1021}}) {
      check_variants(op, shape, {"flat_rows", "auto"}, stream);
    }
  }
}

namespace {

/// launch_rows_flat (or launch_rows_span, which hands such tensors to it) on a tensor that starts
/// one element past a 16-byte boundary (the element-wise load path; the workload's buffers are
/// always aligned), output poisoned with NaN bits first.
template <typename T>
void check_flat_rows_unaligned(DType dtype, std::int64_t rows, std::int64_t cols, sum::Reduction reduction,
                               CudaStream& stream, bool through_span = false) {
  const std::uint64_t seed = fresh_seed();
  INFO(dtype_name(dtype) << " " << rows << " x " << cols << (reduction == sum::Reduction::max ? " max" : " sum")
                         << " seed " << seed);
  const auto n = static_cast<std::size_t>(rows * cols);
  const HostTensor x = random_tensor(dtype, n, seed);
  DeviceBuffer in((n + 1) * sizeof(T));
  upload(in.as<T>() + 1, x.bytes.data(), x.bytes.size());
  DeviceBuffer out(static_cast<std::size_t>(rows) * sizeof(T));
  KBENCH_CUDA_CALL(cudaMemset(out.get(), 0xFF, out.bytes()));
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  if (through_span) sum::launch_rows_span(in.as<T>() + 1, out.as<T>(), rows, cols, reduction, stream.get());
  else sum::launch_rows_flat(in.as<T>() + 1, out.as<T>(), rows, cols, reduction, stream.get());
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream.get()));
  std::vector<std::uint8_t> bytes(out.bytes());
  KBENCH_CUDA_CALL(cudaMemcpy(bytes.data(), out.get(), bytes.size(), cudaMemcpyDeviceToHost));
  CHECK(test::rows_off_reference(dtype, bytes, x.values, rows, cols, reduction) == 0);
}

}  // namespace

TEST_CASE("flat_rows reads a tensor that is not 16-byte aligned element by element", "[gpu][sum][flat_rows]") {
  CudaStream stream;
  for (sum::Reduction reduction : {sum::Reduction::sum, sum::Reduction::max}) {
    for (std::int64_t cols : {1, 3, 8, 61, 1000}) {
      check_flat_rows_unaligned<float>(DType::f32, 4099, cols, reduction, stream);
      check_flat_rows_unaligned<__half>(DType::f16, 4099, cols, reduction, stream);
      check_flat_rows_unaligned<__nv_bfloat16>(DType::bf16, 2053, cols, reduction, stream);
    }
  }
}

TEST_CASE("span_rows reduces 3 rows of 25 elements (its smallest case: one warp, one window)", "[gpu][sum][span_rows]") {
  CudaStream stream;
  for (const char* name : {"sum_inner", "max_inner"}) check_variants(*registry().find(name), {3, 25}, {"span_rows"}, stream);
}

TEST_CASE("span_rows and auto match the reference on odd widths 25-1000, odd row counts, 2-D and 3-D",
          "[gpu][sum][span_rows]") {
  // Issue 22's held-out widths, rows ending at every offset of a run, spans of 8-40 rows whose
  // last iteration is partial, a short last span (odd rows), fewer rows than one span; widths at
  // the run (16 16-bit, 8 fp32 elements), below it and past 1024 take flat_rows' path.
  CudaStream stream;
  for (const char* name : {"sum_inner", "max_inner"}) {
    const Op& op = *registry().find(name);
    for (const Shape& shape : std::vector<Shape>{{262147, 25}, {131071, 33}, {65537, 61}, {65537, 100}, {40961, 127},
                                                 {20011, 129}, {8191, 255}, {8191, 257}, {4099, 999}, {4099, 1000},
                                                 {7, 3, 61}, {3, 4097, 100}, {1, 1000}, {9, 127}, {1031, 1024},
                                                 {65537, 16}, {65537, 17}, {65537, 8}, {65537, 9}, {131071, 7},
                                                 {33, 1025}}) {
      check_variants(op, shape, {"span_rows", "auto"}, stream);
    }
  }
}

TEST_CASE("span_rows hands a tensor that is not 16-byte aligned to flat_rows", "[gpu][sum][span_rows]") {
  CudaStream stream;
  for (sum::Reduction reduction : {sum::Reduction::sum, sum::Reduction::max}) {
    for (std::int64_t cols : {25, 61, 1000}) {
      check_flat_rows_unaligned<float>(DType::f32, 4099, cols, reduction, stream, true);
      check_flat_rows_unaligned<__half>(DType::f16, 4099, cols, reduction, stream, true);
      check_flat_rows_unaligned<__nv_bfloat16>(DType::bf16, 2053, cols, reduction, stream, true);
    }
  }
}

TEST_CASE("split_row and auto leave their counters at zero: a second call gives the same result", "[gpu][sum]") {
  // The per-row tickets are reset by each row's last block; verify's two input sets call twice.
  CudaStream stream;
  for (int call = 0; call < 3; ++call) {
    check_variants(*registry().find("sum_inner"), {16, 300007}, {"split_row", "auto"}, stream);
  }
}

TEST_CASE("every reduction variant matches the reference on odd extents", "[gpu][sum]") {
  CudaStream stream;
  for (const char* name : {"sum_full", "sum_inner", "sum_outer", "max_inner"}) {
    const Op* op = registry().find(name);
    REQUIRE(op != nullptr);
    for (const Shape& shape : odd_shapes()) check_every_variant(*op, shape, stream);
  }
  check_every_variant(*registry().find("sum_full"), {(1 << 20) + 1}, stream);
  check_every_variant(*registry().find("sum_inner"), {1031}, stream);  // one row
}

TEST_CASE("every reduction variant matches the reference on the size classes", "[gpu][sum]") {
  CudaStream stream;
  for (const char* name : {"sum_full", "sum_inner", "sum_outer", "max_inner"}) {
    const Op& op = *registry().find(name);
    for (const SizeClass& size_class : size_classes_to_test())
      for (const Shape& shape : op.shapes_for(size_class)) check_every_variant(op, shape, stream);
  }
}

TEST_CASE("a reduction variant that writes nothing fails verification", "[gpu][sum]") {
  // Declared on each op as a plugin would; its launch leaves the poisoned output as it is.
  Registry with_idle;
  register_all_ops(with_idle);
  const Variant<ReductionArgs> idle = test::writes_nothing<ReductionArgs>();
  CudaStream stream;
  for (const char* name : {"sum_full", "sum_inner", "sum_outer", "max_inner"}) {
    with_idle.add_variant<ReductionArgs>(name, idle);
    const Op& op = *with_idle.find(name);
    const auto variants = op.variants();
    std::size_t index = variants.size();
    for (std::size_t v = 0; v < variants.size(); ++v)
      if (variants[v].name == "writes_nothing") index = v;
    REQUIRE(index < variants.size());
    const Problem problem{{9, 33}, DType::f32, "test"};
    auto workload = op.prepare(problem, fresh_seed());
    const Verification check = workload->verify(index, stream.get());
    INFO(name << ": " << check.message);
    CHECK_FALSE(check.passed);
    CHECK(check.mismatches == op.traffic(problem).bytes_written / sizeof(float));  // every output is the poison
    CHECK_THROWS_AS(workload->launch(99, stream.get()), std::out_of_range);
  }
}

TEST_CASE("flat_columns sums 5 rows of 3 columns (its smallest case: one block, one short window)",
          "[gpu][sum][flat_columns]") {
  CudaStream stream;
  check_variants(*registry().find("sum_outer"), {5, 3}, {"flat_columns"}, stream);
}

TEST_CASE("flat_columns and auto match the reference on 1-1024 columns, odd rows, 2-D and 3-D", "[gpu][sum][flat_columns]") {
  // Widths below, at and past a 16-byte vector, primes and whole vectors; row counts that leave a
  // short last window and a short last vector; tensors of fewer elements than one window.
  CudaStream stream;
  const Op& outer = *registry().find("sum_outer");
  for (const Shape& shape : std::vector<Shape>{{1, 1}, {7, 1}, {1, 7}, {3, 1000}, {1000003, 1}, {524287, 2},
                                               {333331, 3}, {1048573, 7}, {65537, 16}, {262147, 61}, {65537, 64},
                                               {65537, 129}, {16, 4099, 257}, {4099, 1000}, {2053, 1023},
                                               {1031, 1024}, {9, 1021}, {3, 5, 33}, {2, 3, 300007}}) {
    check_variants(outer, shape, {"flat_columns", "auto"}, stream);
  }
}

TEST_CASE("one_pass, two_stage and auto sum rows that are not whole vectors by shifted 16-byte loads",
          "[gpu][sum][shifted_columns]") {
  // Aligned tensors whose rows start at every phase of a 16-byte boundary: odd widths past 1024
  // (auto's two_stage, its phase strips), even widths that are not whole vectors, past and under
  // the cluster path's 512 rows, a last strip narrower than 16 bytes, rows whose last groups reach
  // the tensor's end (the element loads there), widths 1-7 columns short of a whole strip (16-bit
  // 4351 and 1279, fp32 1151: the phase strips' extra strip), fewer rows than row lanes.
  CudaStream stream;
  const Op& outer = *registry().find("sum_outer");
  for (const Shape& shape : std::vector<Shape>{{4099, 4097}, {2049, 8191}, {3, 5000, 3001}, {1000, 1025}, {700, 1031},
                                               {9000, 1029}, {1030, 1030}, {1031, 1026}, {600, 2051}, {513, 1027},
                                               {1, 1025}, {2, 3}, {5, 7, 1033}, {65537, 129}, {37, 4351},
                                               {19, 1151}, {17, 1279}, {10, 2045}, {1, 4095}, {3, 1026}}) {
    check_variants(outer, shape, {"one_pass", "two_stage", "narrow_columns", "auto"}, stream);
  }
}

TEST_CASE("flat_columns leaves its accumulators and counter at zero: later calls give the same result",
          "[gpu][sum][flat_columns]") {
  // verify() calls each variant on two input sets; the accumulator copies are reset by the last
  // block, so a leftover would show up as a wrong sum on the next call.
  CudaStream stream;
  for (int call = 0; call < 3; ++call) {
    check_variants(*registry().find("sum_outer"), {100003, 7}, {"flat_columns", "auto"}, stream);
    check_variants(*registry().find("sum_outer"), {4099, 1000}, {"flat_columns"}, stream);
  }
}

namespace {

/// launch_columns_flat on a tensor that starts one element past a 16-byte boundary (the element
/// load path; the workload's buffers are always aligned), output poisoned with NaN bits first.
template <typename T>
void check_flat_columns_unaligned(DType dtype, std::int64_t rows, std::int64_t cols, CudaStream& stream) {
  const std::uint64_t seed = fresh_seed();
  INFO(dtype_name(dtype) << " " << rows << " x " << cols << " seed " << seed);
  const auto n = static_cast<std::size_t>(rows * cols);
  const HostTensor x = random_tensor(dtype, n, seed);
  DeviceBuffer in((n + 1) * sizeof(T));
  upload(in.as<T>() + 1, x.bytes.data(), x.bytes.size());
  DeviceBuffer out(static_cast<std::size_t>(cols) * sizeof(T));
  KBENCH_CUDA_CALL(cudaMemset(out.get(), 0xFF, out.bytes()));
  const sum::FlatColumnsShape shape = sum::flat_columns_shape<T>(rows, cols, 132);
  DeviceBuffer scratch(static_cast<std::size_t>(shape.slots * cols) * sizeof(float));
  DeviceBuffer counter(sizeof(unsigned));
  KBENCH_CUDA_CALL(cudaMemset(scratch.get(), 0, scratch.bytes()));
  KBENCH_CUDA_CALL(cudaMemset(counter.get(), 0, counter.bytes()));
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  sum::launch_columns_flat(in.as<T>() + 1, out.as<T>(), rows, cols, shape, scratch.as<float>(), counter.as<unsigned>(),
                           stream.get());
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream.get()));
  std::vector<std::uint8_t> bytes(out.bytes());
  KBENCH_CUDA_CALL(cudaMemcpy(bytes.data(), out.get(), bytes.size(), cudaMemcpyDeviceToHost));
  const std::vector<float> got = decode_to_float(dtype, bytes.data(), static_cast<std::size_t>(cols));
  const sum::ReductionReference want = sum::reference_columns(x.values, rows, cols);
  const Tolerance tol = sum::reduction_tolerance(dtype, sum::Reduction::sum);
  std::int64_t bad = 0;
  for (std::size_t c = 0; c < got.size(); ++c) {
    const double allowed = tol.abs + tol.rel * std::fabs(want.values[c]) + tol.scaled * want.scale[c];
    if (!(std::fabs(got[c] - want.values[c]) <= allowed)) ++bad;
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("flat_columns reads a tensor that is not 16-byte aligned element by element", "[gpu][sum][flat_columns]") {
  CudaStream stream;
  for (std::int64_t cols : {1, 3, 16, 61, 257, 1000}) {
    check_flat_columns_unaligned<float>(DType::f32, 40009, cols, stream);
    check_flat_columns_unaligned<__half>(DType::f16, 40009, cols, stream);
    check_flat_columns_unaligned<__nv_bfloat16>(DType::bf16, 20011, cols, stream);
  }
}

