// sum_outer's variants (each column summed over the rows), declared beside the launchers of
// sum_columns_kernels.cu and the cuBLAS baseline.
#include "kernels/sum/sum_variants.hpp"

#include "kernels/sum/sum_auto.hpp"

#include "harness/device/cublas_handle.hpp"
#include "harness/ops/host_tensor.hpp"

#include <library_types.h>

#include <algorithm>
#include <cstdint>
#include <memory>

namespace kbench::sum {

namespace {

/// The cuBLAS baseline's workspace: set on its handle so that a call allocates nothing.
constexpr std::size_t kCublasWorkspaceBytes = 32u << 20;

std::size_t element_bytes(const ReductionArgs& args) { return dtype_size(args.dtype); }

Variant<ReductionArgs> naive() {
  Variant<ReductionArgs> v;
  v.name = "naive";
  v.description = "one thread per column walking down it";
  v.launch = [](const ReductionArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) { launch_columns_naive(x, y, args.rows, args.cols, stream); });
  };
  return v;
}

Variant<ReductionArgs> two_stage() {
  Variant<ReductionArgs> v;
  v.name = "two_stage";
  v.description = "32x8 blocks over column strips and row chunks with 16-byte loads (rows that are not whole vectors: each "
      "thread's rows share one phase, so it adds aligned vectors whose columns sit shifted by it), then per column";
  v.kernels_per_call = 2;
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    const int chunks = column_chunks(args.rows, args.cols, args.device.sm_count, element_bytes(args));
    auto partials = std::make_shared<DeviceBuffer>(
        static_cast<std::size_t>(chunks) * static_cast<std::size_t>(column_partial_floats(args.cols, element_bytes(args))) *
        sizeof(float));
    return [args, chunks, partials](cudaStream_t stream) {
      with_typed(args, [&](auto x, auto y) {
        launch_columns_two_stage(x, y, args.rows, args.cols, partials->as<float>(), chunks, stream);
      });
    };
  };
  return v;
}

Variant<ReductionArgs> column_walk() {
  Variant<ReductionArgs> v;
  v.name = "column_walk";
  v.description =
      "a thread per column (per 16-byte column group when rows are aligned) walking every row, 8 rows in flight; "
      "one kernel, no partials";
  v.launch = [](const ReductionArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) { launch_columns_walk(x, y, args.rows, args.cols, stream); });
  };
  return v;
}

CallFn tiles_call(const ReductionArgs& args) {
  const int chunks = column_tiles_chunks(args.rows, args.cols, args.device.sm_count, element_bytes(args));
  auto partials = std::make_shared<DeviceBuffer>(
      static_cast<std::size_t>(chunks) * static_cast<std::size_t>(column_partial_floats(args.cols, element_bytes(args))) *
      sizeof(float));
  return [args, chunks, partials](cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) {
      launch_columns_tiles(x, y, args.rows, args.cols, partials->as<float>(), chunks, stream);
    });
  };
}

Variant<ReductionArgs> column_tiles() {
  Variant<ReductionArgs> v;
  v.name = "column_tiles";
  v.description =
      "4 blocks per SM, each copying its chunk's tiles of whole rows (16 KiB, 16-byte loads of the flat array) to "
      "shared memory and adding columns t, t + 256, ...; then a pass per column; wider than 1024 columns runs "
      "two_stage";
  v.kernels_per_call = 2;
  v.prepare = tiles_call;
  return v;
}

/// one_pass's partials and per-strip tickets for one problem.
struct OnePassState {
  int chunks = 1;
  DeviceBuffer partials;  ///< chunks x cols floats
  DeviceBuffer tickets;   ///< one per column strip
};

Variant<ReductionArgs> one_pass() {
  Variant<ReductionArgs> v;
  v.name = "one_pass";
  v.description =
      "two_stage's blocks in one kernel, the last row-chunk block of each column strip adds the chunks' "
      "partials; up to 512 rows on Hopper, each strip's chunks one cluster meeting in shared memory";
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    auto state = std::make_shared<OnePassState>();
    state->chunks = columns_one_pass_chunks(args.rows, args.cols, args.device.sm_count, element_bytes(args),
                                            args.device.cc_major);
    state->partials =
        DeviceBuffer(static_cast<std::size_t>(state->chunks) * static_cast<std::size_t>(args.cols) * sizeof(float));
    state->tickets = zeroed_tickets(static_cast<std::size_t>(column_strips(args.x, args.cols, element_bytes(args))));
    return [args, state](cudaStream_t stream) {
      with_typed(args, [&](auto x, auto y) {
        launch_columns_one_pass(x, y, args.rows, args.cols, state->partials.as<float>(), state->tickets.as<unsigned>(),
                                state->chunks, args.device.cc_major, stream);
      });
    };
  };
  return v;
}

/// flat_columns' launch shape and its zeroed accumulator copies and counter for one problem.
struct FlatColumnsState {
  FlatColumnsShape shape;
  DeviceBuffer scratch;  ///< shape.slots x cols floats, zero between calls
  DeviceBuffer counter;  ///< one unsigned, zero between calls
};

CallFn flat_call(const ReductionArgs& args) {
  auto state = std::make_shared<FlatColumnsState>();
  dispatch_dtype(args.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    state->shape = flat_columns_shape<T>(args.rows, args.cols, args.device.sm_count);
  });
  // Zero floats are zero bits, so the tickets' memset zeroes the accumulator copies too.
  state->scratch = zeroed_tickets(static_cast<std::size_t>(state->shape.slots) * static_cast<std::size_t>(args.cols));
  state->counter = zeroed_tickets(1);
  return [args, state](cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) {
      launch_columns_flat(x, y, args.rows, args.cols, state->shape, state->scratch.as<float>(),
                          state->counter.as<unsigned>(), stream);
    });
  };
}

Variant<ReductionArgs> flat_columns() {
  Variant<ReductionArgs> v;
  v.name = "flat_columns";
  v.description =
      "up to 1024 columns of any width: the tensor as one stream of 16-byte vectors, windows of whole column "
      "periods so each thread's lanes keep their columns, sums in registers, one fp32 atomic add per column and "
      "block, the last block writes; one kernel. Wider: one_pass";
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    if (args.cols > kFlatColumnsMaxCols) return one_pass().prepare(args);
    return flat_call(args);
  };
  return v;
}

/// Floats of narrow_columns' partials: tiles x cols, or two_stage's chunks x column_partial_floats
/// where it runs (more than cols: narrow's tiles are sized by cols alone).
std::size_t narrow_partials(const ReductionArgs& args) {
  const std::int64_t blocks = args.cols > kNarrowColumnsMaxCols
                                  ? column_chunks(args.rows, args.cols, args.device.sm_count, element_bytes(args))
                                  : narrow_column_tiles(args.rows, args.cols, element_bytes(args));
  return static_cast<std::size_t>(blocks * column_partial_floats(args.cols, element_bytes(args)));
}

CallFn narrow_call(const ReductionArgs& args) {
  auto partials = std::make_shared<DeviceBuffer>(narrow_partials(args) * sizeof(float));
  return [args, partials](cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) {
      launch_columns_narrow(x, y, args.rows, args.cols, partials->as<float>(), args.device.sm_count, stream);
    });
  };
}

Variant<ReductionArgs> narrow_columns() {
  Variant<ReductionArgs> v;
  v.name = "narrow_columns";
  v.description =
      "tiles of whole rows (16 KiB of the flat array, 16-byte loads) in shared memory, 256 / cols row lanes per "
      "column, then a block per column; wider than 128 columns runs two_stage";
  v.kernels_per_call = 2;
  v.prepare = narrow_call;
  return v;
}

Variant<ReductionArgs> auto_variant() {
  Variant<ReductionArgs> v;
  v.name = "auto";
  v.description =
      "picks per problem (sum/NOTES.md): column_walk when the columns alone keep 24 KiB in flight per SM, else "
      "flat_columns up to 1024 columns, two_stage past them for rows that are not whole 16-byte vectors, one_pass "
      "otherwise";
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    switch (auto_column_kernel(args.cols, element_bytes(args), args.device.sm_count)) {
      case ColumnKernel::walk:
        return [args](cudaStream_t stream) {
          with_typed(args, [&](auto x, auto y) { launch_columns_walk(x, y, args.rows, args.cols, stream); });
        };
      case ColumnKernel::flat: return flat_call(args);
      case ColumnKernel::two_stage: return two_stage().prepare(args);
      case ColumnKernel::one_pass: break;
    }
    return one_pass().prepare(args);
  };
  return v;
}

cudaDataType_t cublas_type(DType dtype) {
  switch (dtype) {
    case DType::f16: return CUDA_R_16F;
    case DType::bf16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
  }
}

/// cublas_gemv's handle and ones vector for one problem.
struct GemvState {
  CublasHandle cublas{kCublasWorkspaceBytes};
  DeviceBuffer ones;  ///< rows elements of the dtype, each exactly 1
};

Variant<ReductionArgs> cublas_gemv() {
  Variant<ReductionArgs> v;
  v.name = "cublas_gemv";
  v.role = VariantRole::baseline;
  v.description = "cublasGemmEx of the matrix with a ones vector (n = 1)";
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    auto state = std::make_shared<GemvState>();
    const HostTensor ones = random_tensor(args.dtype, static_cast<std::size_t>(args.rows), 0, 1.0f, 1.0f);
    state->ones = DeviceBuffer(ones.bytes.size());
    upload(state->ones.get(), ones.bytes.data(), ones.bytes.size());
    // What a vendor user calls for a column sum: a matrix-vector product with a ones vector.
    // Row-major rows x cols is column-major cols x rows (lda = cols), so y = A_cm * ones.
    return [args, state](cudaStream_t stream) {
      const float one = 1.0f, zero = 0.0f;
      const cudaDataType_t type = cublas_type(args.dtype);
      const int rows = static_cast<int>(args.rows), cols = static_cast<int>(args.cols);
      KBENCH_CUBLAS_CALL(cublasGemmEx(state->cublas.on(stream), CUBLAS_OP_N, CUBLAS_OP_N, cols, 1, rows, &one, args.x,
                                      type, cols, state->ones.get(), type, rows, &zero, args.y, type, cols,
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    };
  };
  return v;
}

}  // namespace

std::vector<Variant<ReductionArgs>> column_variants() {
  return {naive(),       two_stage(),    one_pass(),     narrow_columns(),
          column_walk(), column_tiles(), flat_columns(), auto_variant(), cublas_gemv()};
}

double column_scratch_bytes(std::int64_t rows, std::int64_t cols, DType dtype) {
  const std::size_t size = dtype_size(dtype);
  const double two_stage_chunks = column_chunks(rows, cols, kAnySmCount, size);
  const double one_pass_chunks = std::max(columns_one_pass_chunks(rows, cols, kAnySmCount, size, 0),
                                          columns_one_pass_chunks(rows, cols, kAnySmCount, size, 9));
  const double narrow_blocks = std::max<double>(two_stage_chunks, narrow_column_tiles(rows, cols, size));
  const double tiles_chunks = column_tiles_chunks(rows, cols, kAnySmCount, size);
  // Partials of chunks x column_partial_floats (narrow_columns' and column_tiles', and auto's when it takes
  // one of them or one_pass; flat_columns' one_pass past 1024 columns); tickets: a strip is at
  // least one column, for one_pass, auto and flat_columns; flat_columns' accumulator copies (at
  // most max(2048, 32 x cols) floats and a counter, for it and auto); cuBLAS's workspace and ones
  // vector (the handle's own allocations are cuBLAS's, not counted).
  const double flat_floats = std::max<double>(2048.0, 32.0 * static_cast<double>(cols)) + 1;
  const double partial_floats = static_cast<double>(column_partial_floats(cols, size));
  return (two_stage_chunks + 3 * one_pass_chunks + 2 * narrow_blocks + 2 * tiles_chunks) * partial_floats *
             sizeof(float) +
         2 * flat_floats * sizeof(float) + 3 * static_cast<double>(cols) * sizeof(unsigned) +
         static_cast<double>(kCublasWorkspaceBytes) +
         static_cast<double>(rows) * static_cast<double>(size);
}

}  // namespace kbench::sum
