#pragma once
/// What one call of a variant launches on the GPU, from CUPTI's activity records (kernels,
/// memcpys, memsets): names, launch shapes and GPU durations. Gathered in a short pass of its
/// own after the timed samples (harness/measure/kernel_tracer.hpp), so it never perturbs them. Host-only.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kbench {

/// One kind of GPU activity of a call: a kernel with one launch shape, or a memcpy/memset.
struct KernelActivity {
  std::string name;                 ///< demangled kernel name, or "[memcpy]" / "[memset]"
  double launches_per_call = 0;     ///< how often one call runs it
  std::array<int, 3> grid{0, 0, 0};   ///< blocks per grid (x, y, z); zeros for memcpy/memset
  std::array<int, 3> block{0, 0, 0};  ///< threads per block (x, y, z)
  double mean_ms = 0;               ///< mean GPU duration of one launch

  std::int64_t blocks() const {
    return std::int64_t{grid[0]} * grid[1] * grid[2];
  }
  bool is_kernel() const { return !name.empty() && name.front() != '['; }
};

struct KernelBreakdown {
  int calls_traced = 0;             ///< calls of the variant the records come from
  double kernels_per_call = 0;      ///< kernel launches per call (memcpy/memset not counted)
  double gpu_ms_per_call = 0;       ///< summed GPU duration of everything one call ran
  std::vector<KernelActivity> activities;  ///< in order of first appearance

  /// The activity that takes the most GPU time per call, or nullptr when there is none.
  const KernelActivity* dominant() const;
};

/// Groups raw records (already in launch order) into activities per call.
struct TracedActivity {
  std::string name;
  std::array<int, 3> grid{0, 0, 0};
  std::array<int, 3> block{0, 0, 0};
  double duration_ms = 0;
};
KernelBreakdown summarize_activities(const std::vector<TracedActivity>& records, int calls);

}  // namespace kbench
