#pragma once
/// A variant: one way to compute an op, declared once beside its launcher. kbench's own kernels,
/// vendor baselines and plugins' kernels are all declared this way. Part of the public API.
///
/// `Args` is the op's view of one problem: its extents, dtype, device and typed device buffers
/// (kbench/ops/*.hpp for kbench's ops; a plugin's own op defines its own). kbench allocates the
/// buffers, fills the inputs, poisons the outputs, verifies and times; a variant only launches.

#include "kbench/types.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kbench {

/// One call of a variant on one problem, bound to its buffers: enqueues the call's kernels on the
/// stream. It runs inside the timed window: no allocation, no synchronisation, no host copies.
using CallFn = std::function<void(cudaStream_t)>;

template <class Args>
struct Variant {
  std::string name;                   ///< unique within its op; what --variant selects: 1-64 ASCII letters, digits, _ - or .
  VariantRole role = VariantRole::own;
  std::string description;            ///< one line for `kbench list` and reports
  int kernels_per_call = 1;           ///< kernels one call launches (unfused chains show here)
  std::vector<DType> dtypes;          ///< the dtypes it runs; empty: every dtype of the op
  /// The tolerance where it differs from the op's (an unfused chain that rounds in between);
  /// empty: the op's.
  std::function<Tolerance(DType)> tolerance;
  /// Empty when it can run `args` (on args.device), else why not: the row is SKIPPED with it.
  std::function<std::string(const Args&)> cannot_run;
  /// One call on `args`. Give this, or `prepare`.
  std::function<void(const Args&, cudaStream_t)> launch;
  /// For variants that need per-problem state (scratch, handles, plans): runs once per problem,
  /// outside any timed window, and returns the call, which owns that state.
  std::function<CallFn(const Args&)> prepare;
};

namespace detail {

/// A variant with its Args erased, as it crosses from a plugin into kbench.
struct AnyVariant {
  std::string name;
  VariantRole role = VariantRole::own;
  std::string description;
  int kernels_per_call = 1;
  std::vector<DType> dtypes;
  std::function<Tolerance(DType)> tolerance;
  std::function<std::string(const void* args)> cannot_run;
  std::function<CallFn(const std::shared_ptr<const void>& args)> bind;  ///< never empty
};

template <class Args>
AnyVariant erase(Variant<Args> v) {
  AnyVariant any{std::move(v.name), v.role, std::move(v.description), v.kernels_per_call, std::move(v.dtypes),
                 std::move(v.tolerance), {}, {}};
  if (v.cannot_run) {
    any.cannot_run = [f = std::move(v.cannot_run)](const void* args) { return f(*static_cast<const Args*>(args)); };
  }
  if (v.prepare) {
    any.bind = [f = std::move(v.prepare)](const std::shared_ptr<const void>& args) {
      return f(*static_cast<const Args*>(args.get()));
    };
  } else if (v.launch) {
    // The call keeps the args alive; they are the workload's, unchanged while it lives.
    any.bind = [f = std::move(v.launch)](const std::shared_ptr<const void>& args) -> CallFn {
      const Args* typed = static_cast<const Args*>(args.get());
      return [f, typed, keep = args](cudaStream_t stream) { f(*typed, stream); };
    };
  }
  return any;
}

}  // namespace detail

}  // namespace kbench
