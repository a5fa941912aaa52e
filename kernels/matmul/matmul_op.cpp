// The matmul op: C = A·B, row-major, A is M×K, B is K×N, C is M×N, for a shape {M, N, K}.
#include "kernels/legacy_workload.hpp"
#include "kernels/matmul/matmul_op.hpp"

#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_setup.hpp"
#include "harness/ops/device_output.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/host_tensor.hpp"
#include "kernels/matmul/matmul_cublas.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "kernels/matmul/matmul_problem.hpp"
#include "kernels/matmul/matmul_reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace kbench {

namespace {

using matmul::Dims;

enum MatmulVariant : std::size_t { kNaive, kTiled, kRegisterBlocked, kTensorCore, kWgmma, kCublas, kVariantCount };

/// True when the element at `index` of a raw `dtype` buffer is NaN or ±Inf (all exponent bits set).
bool is_nonfinite(DType dtype, const std::uint8_t* raw, std::int64_t index) {
  if (storage_dtype(dtype) == DType::f32) {
    std::uint32_t bits;
    std::memcpy(&bits, raw + 4 * index, 4);
    return (bits & 0x7F800000u) == 0x7F800000u;
  }
  std::uint16_t bits;
  std::memcpy(&bits, raw + 2 * index, 2);
  const std::uint16_t exponent = dtype == DType::f16 ? 0x7C00u : 0x7F80u;
  return (bits & exponent) == exponent;
}

class MatmulWorkload final : public LegacyWorkload {
 public:
  MatmulWorkload(const Problem& problem, std::uint64_t seed) : dtype_(problem.dtype) {
    const std::string why = matmul::reject_matmul_shape(problem.shape);
    if (!why.empty()) throw std::invalid_argument("matmul: shape " + format_shape(problem.shape) + ": " + why);
    dims_ = matmul::dims_of(problem.shape);
    const std::int64_t m = dims_.m, n = dims_.n, k = dims_.k;
    const std::size_t size = dtype_size(dtype_);
    a_ = DeviceBuffer(static_cast<std::size_t>(m * k) * size);
    b_ = DeviceBuffer(static_cast<std::size_t>(k * n) * size);
    c_ = DeviceBuffer(static_cast<std::size_t>(m * n) * size);

    // Fresh inputs in [-1, 1), one stream per matrix drawn from the harness's seed.
    const HostTensor a = random_tensor(dtype_, static_cast<std::size_t>(m * k), seed);
    const HostTensor b = random_tensor(dtype_, static_cast<std::size_t>(k * n), seed ^ 0x5DEECE66Dull);
    upload(a_.get(), a.bytes.data(), a.bytes.size());
    upload(b_.get(), b.bytes.data(), b.bytes.size());

    // The reference, in double from the exact dtype values, at the checked positions only.
    positions_ = matmul::sample_positions(m, n, seed ^ 0x9E3779B97F4A7C15ull);
    reference_ = matmul::reference_at(a.values, b.values, m, n, k, positions_);
    cublas_ = std::make_unique<matmul::CublasMatmul>();
    const ComputeCapability cc = current_compute_capability();
    wgmma_unavailable_ = matmul::wgmma_unavailable(cc.major, cc.minor);
  }

  std::string cannot_run(std::size_t variant) const override {
    return variant == kWgmma ? wgmma_unavailable_ : std::string{};
  }

  void launch(std::size_t variant, cudaStream_t stream) override {
    if (variant >= kVariantCount) throw std::out_of_range("matmul: no variant " + std::to_string(variant));
    switch (variant) {
      case kNaive:
      case kTiled:
        dispatch_dtype(dtype_, [&](auto tag) {
          using T = typename decltype(tag)::type;
          if (variant == kNaive) {
            matmul::launch_naive(a_.as<T>(), b_.as<T>(), c_.as<T>(), dims_, stream);
          } else {
            matmul::launch_tiled(a_.as<T>(), b_.as<T>(), c_.as<T>(), dims_, stream);
          }
        });
        break;
      case kRegisterBlocked:
        if (dtype_ != DType::f32) throw unsupported(variant);
        matmul::launch_register_blocked(a_.as<float>(), b_.as<float>(), c_.as<float>(), dims_, stream);
        break;
      case kTensorCore:
        switch (dtype_) {
          case DType::f16:
            matmul::launch_tensor_core(a_.as<__half>(), b_.as<__half>(), c_.as<__half>(), dims_, stream);
            break;
          case DType::bf16:
            matmul::launch_tensor_core(a_.as<__nv_bfloat16>(), b_.as<__nv_bfloat16>(), c_.as<__nv_bfloat16>(), dims_,
                                       stream);
            break;
          case DType::tf32:
            matmul::launch_tensor_core_tf32(a_.as<float>(), b_.as<float>(), c_.as<float>(), dims_, stream);
            break;
          case DType::f32: throw unsupported(variant);
        }
        break;
      case kWgmma:
        if (!wgmma_unavailable_.empty()) throw std::invalid_argument("matmul wgmma: " + wgmma_unavailable_);
        if (dtype_ == DType::f16) {
          matmul::launch_wgmma(a_.as<__half>(), b_.as<__half>(), c_.as<__half>(), dims_, stream);
        } else if (dtype_ == DType::bf16) {
          matmul::launch_wgmma(a_.as<__nv_bfloat16>(), b_.as<__nv_bfloat16>(), c_.as<__nv_bfloat16>(), dims_, stream);
        } else {
          throw unsupported(variant);
        }
        break;
      case kCublas: cublas_->run(dtype_, a_.get(), b_.get(), c_.get(), dims_, stream); break;
    }
  }

  void poison_outputs(cudaStream_t stream) override { poison_output(c_, stream); }

  Verification check_outputs(cudaStream_t stream) override {
    const std::vector<std::uint8_t> raw = read_output_bytes(c_, stream);
    const std::int64_t total = static_cast<std::int64_t>(dims_.m) * dims_.n;

    // 1. Every element must be finite: an element no thread wrote is still the poison NaN.
    Verification finite;
    for (std::int64_t i = 0; i < total; ++i) {
      if (!is_nonfinite(dtype_, raw.data(), i)) continue;
      if (finite.first_mismatch < 0) finite.first_mismatch = i;
      ++finite.mismatches;
    }
    if (finite.mismatches > 0) {
      finite.checked = total;
      finite.tolerance = matmul::matmul_tolerance(dtype_);
      const float got = decode_to_float(dtype_, raw.data() + finite.first_mismatch * dtype_size(dtype_), 1)[0];
      char line[256];
      std::snprintf(line, sizeof line, "%lld of %lld elements not finite (unwritten or overflowed); first at row %lld, col %lld: %g",
                    static_cast<long long>(finite.mismatches), static_cast<long long>(total), row_of(finite.first_mismatch),
                    col_of(finite.first_mismatch), static_cast<double>(got));
      finite.message = line;
      return finite;
    }

    // 2. The checked positions against the double reference.
    std::vector<float> sampled(positions_.size());
    for (std::size_t s = 0; s < positions_.size(); ++s) {
      sampled[s] = decode_to_float(dtype_, raw.data() + positions_[s] * static_cast<std::int64_t>(dtype_size(dtype_)), 1)[0];
    }
    Verification result =
        compare_with_reference(sampled, reference_.value, matmul::matmul_tolerance(dtype_), reference_.scale);
    const std::string scope = result.checked == total ? "all " + std::to_string(total) + " elements"
                                                      : std::to_string(result.checked) + " of " + std::to_string(total) +
                                                            " elements (sampled; all finite)";
    if (result.passed) {
      result.message = "ok: " + scope + "; " + result.message.substr(result.message.find(',') + 2);
    } else if (result.first_mismatch >= 0) {
      const auto s = static_cast<std::size_t>(result.first_mismatch);
      const Tolerance t = result.tolerance;
      const double bound = t.abs + t.rel * std::fabs(reference_.value[s]) + t.scaled * reference_.scale[s];
      char line[320];
      std::snprintf(line, sizeof line, "%lld of %s outside tolerance; first at row %lld, col %lld: got %.8g, expected %.8g (|err| %.3g > bound %.3g)",
                    static_cast<long long>(result.mismatches), scope.c_str(), row_of(positions_[s]), col_of(positions_[s]),
                    static_cast<double>(sampled[s]), reference_.value[s], std::fabs(sampled[s] - reference_.value[s]), bound);
      result.message = line;
      result.first_mismatch = positions_[s];  // as a flat index of C
    }
    return result;
  }

 private:
  std::invalid_argument unsupported(std::size_t variant) const {
    return std::invalid_argument("matmul: variant " + std::to_string(variant) + " does not run " +
                                 std::string(dtype_name(dtype_)));
  }
  long long row_of(std::int64_t flat) const { return static_cast<long long>(flat / dims_.n); }
  long long col_of(std::int64_t flat) const { return static_cast<long long>(flat % dims_.n); }

  DType dtype_;
  Dims dims_;
  DeviceBuffer a_, b_, c_;
  std::vector<std::int64_t> positions_;  ///< flat indices of C that are compared
  matmul::ReferenceValues reference_;    ///< at positions_
  std::unique_ptr<matmul::CublasMatmul> cublas_;
  std::string wgmma_unavailable_;  ///< empty on compute capability 9.0
};

class MatmulOp final : public Op {
 public:
  std::string name() const override { return "matmul"; }
  std::string summary() const override {
    return "C = A·B, row-major; shape MxNxK (A is MxK, B is KxN); fp32 accumulation";
  }
  std::vector<Shape> shapes_for(const SizeClass& size_class) const override {
    const std::string& name = size_class.name;
    if (name == "small") return {{512, 512, 512}};
    if (name == "medium") return {{1024, 1024, 1024}, {2048, 2048, 2048}};
    if (name == "large") return {{4096, 4096, 4096}};
    if (name == "xlarge") return {{8192, 8192, 8192}};
    if (name == "batch") return {{1000, 1000, 1000}, {4096, 1024, 8192}, {127, 4099, 65}};  // not tile multiples
    return {};
  }
  std::vector<VariantInfo> variants() const override {
    // Rows in MatmulVariant order.
    return {
        {"naive", VariantRole::own,
         "one thread per element of C, operands straight from global memory (tf32: computes in fp32)"},
        {"tiled", VariantRole::own, "32x32 shared-memory tiles, one element per thread (tf32: computes in fp32)"},
        {"register_blocked", VariantRole::own,
         "128x128 block tile, 8x8 per thread in registers, double-buffered shared memory, 16-byte loads; "
         "below one tile per SM: 16x32 tiles with K split over the block's 8 warps",
         1,
         {DType::f32}},
        {"tensor_core", VariantRole::own,
         "mma.sync tensor cores (fp16/bf16 m16n8k16, tf32 m16n8k8), ldmatrix, 64x64 per warp, cp.async "
         "multi-stage pipeline (fp16/bf16: 128x256 block tile, 3 stages; tf32: 128x128, 4 stages; "
         "at most one such tile per 8 SMs: 32x32 tiles of four warps splitting K)",
         1,
         {DType::f16, DType::bf16, DType::tf32}},
        {"wgmma", VariantRole::own,
         "Hopper warpgroup MMA (wgmma m64n256k16, sm_90a; compute capability 9.0 only), 128x256 block tile of "
         "two warpgroups, 128-byte-swizzled shared memory filled by cp.async, 4 stages, one MMA group in flight",
         1,
         {DType::f16, DType::bf16}},
        {"cublas", VariantRole::baseline,
         "cublasGemmEx, row-major via the transpose; fp32 without TF32, tf32 with COMPUTE_32F_FAST_TF32"},
    };
  }
  std::vector<DType> dtypes() const override { return {DType::f32, DType::f16, DType::bf16, DType::tf32}; }
  std::string reject_shape(const Shape& shape) const override { return matmul::reject_matmul_shape(shape); }
  Traffic traffic(const Problem& problem) const override {
    const double m = static_cast<double>(problem.shape.at(0));
    const double n = static_cast<double>(problem.shape.at(1));
    const double k = static_cast<double>(problem.shape.at(2));
    const double size = static_cast<double>(dtype_size(problem.dtype));
    const char* math = problem.dtype == DType::f32    ? "fp32"
                       : problem.dtype == DType::tf32 ? "tf32_tensor"
                                                      : "fp16_tensor";
    return {(m * k + k * n) * size, m * n * size, 2 * m * n * k, math};
  }
  std::unique_ptr<Workload> prepare(const Problem& problem, std::uint64_t seed) const override {
    return std::make_unique<MatmulWorkload>(problem, seed);
  }
};

}  // namespace

void register_matmul(Registry& registry) { registry.add(std::make_unique<MatmulOp>()); }

}  // namespace kbench
