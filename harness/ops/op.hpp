#pragma once
/// The interface every op family implements. Ops declare; the harness computes.
///
/// An Op is stateless: it names its variants and dtypes, states how many bytes a case must move
/// and how many FLOPs it must do (the minimum any implementation needs, in the case's dtype), and
/// prepares a Workload for one problem. The Workload owns the device buffers and the reference,
/// and enqueues one call of a variant at a time. Verification and timing are the harness's job.

#include "harness/ops/problem.hpp"
#include "harness/config/size_classes.hpp"
#include "harness/ops/traffic.hpp"
#include "harness/ops/variant_role.hpp"
#include "harness/ops/verification.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kbench {

struct VariantInfo {
  std::string name;
  VariantRole role = VariantRole::own;
  std::string description;
  int kernels_per_call = 1;  ///< kernels one call launches, as the op declares it (fusion shows here)
  std::vector<DType> only_dtypes;  ///< the dtypes this variant runs; empty: every dtype of the op
  std::string source = "kbench";   ///< where it was declared: "kbench", or a plugin's or kernel file's path

  bool supports(DType dtype) const;
};

/// Device state for one problem. Not thread-safe; lives on one device.
class Workload {
 public:
  virtual ~Workload() = default;
  /// Enqueues one call of variant `variant` (an index into Op::variants()) on `stream`.
  /// Must not allocate, synchronise or copy to the host: it runs inside the timed window.
  virtual void launch(std::size_t variant, cudaStream_t stream) = 0;
  /// One verified call of `variant`: poisons the outputs, launches, synchronises `stream`, and
  /// compares the outputs with the reference (harness/ops/defined_op.hpp says how thoroughly).
  /// Throws CudaError when the call fails; launches outside the timed window.
  virtual Verification verify(std::size_t variant, cudaStream_t stream) = 0;
  /// Prepares `variant`'s call for this problem (its scratch, handles, plans), outside any timed
  /// or watched window; launch and verify do it on first use when nobody did before.
  virtual void prepare_call(std::size_t variant) { (void)variant; }
  /// Empty when this device can run `variant`, else why not (a kernel built for one compute
  /// capability only): the runner then skips the row with that reason instead of launching.
  virtual std::string cannot_run(std::size_t variant) const {
    (void)variant;
    return {};
  }
};

class Op {
 public:
  virtual ~Op() = default;
  virtual std::string name() const = 0;
  /// The family `--op` also accepts: "sum" selects sum_full, sum_inner, ... Defaults to name().
  virtual std::string family() const { return name(); }
  virtual std::string summary() const = 0;
  /// The shapes this op runs for a size class; by default the class's elementwise shapes.
  /// Ops whose shapes mean something else (matmul's M x N x K) map the class to their own.
  virtual std::vector<Shape> shapes_for(const SizeClass& size_class) const { return size_class.shapes; }
  virtual std::vector<VariantInfo> variants() const = 0;
  virtual std::vector<DType> dtypes() const = 0;
  /// Empty when `shape` suits this op, otherwise why not.
  virtual std::string reject_shape(const Shape& shape) const = 0;
  virtual Traffic traffic(const Problem& problem) const = 0;
  /// Device memory prepare() allocates for `problem`, in bytes; by default the traffic's bytes
  /// (inputs and outputs). Ops with large temporaries say so, so that a case that cannot fit is
  /// skipped with the numbers rather than failing mid-allocation.
  virtual double device_bytes(const Problem& problem) const { return traffic(problem).bytes_total(); }
  /// Host memory prepare() holds at its peak for `problem`, in bytes (the inputs' two sets, their
  /// values widened to float, the fp64 references); 0 where the op cannot say (no check is made).
  virtual double host_bytes(const Problem& problem) const {
    (void)problem;
    return 0.0;
  }
  /// Allocates buffers and uploads fresh random inputs drawn from `seed`. Throws CudaError.
  virtual std::unique_ptr<Workload> prepare(const Problem& problem, std::uint64_t seed) const = 0;
};

}  // namespace kbench
