// The harness's own GPU parts: device query, the copy roof, L2 flush and the sampler.
#include "harness/copy_roof.hpp"
#include "harness/cuda_resources.hpp"
#include "harness/device_info.hpp"
#include "harness/l2_flush.hpp"
#include "harness/measure.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "support/catch.hpp"

using namespace kbench;

TEST_CASE("the device query gives plausible attributes and peaks", "[gpu][device]") {
  const DeviceInfo info = query_device_info(0);
  INFO(info.name);
  CHECK(!info.name.empty());
  CHECK(info.sm_count > 0);
  CHECK(info.l2_bytes > 0);
  CHECK(info.memory_clock_khz > 0);
  CHECK(info.bus_width_bits > 0);
  CHECK(info.peak_bandwidth_bytes_per_s == Approx(theoretical_bandwidth(info.memory_clock_khz, info.bus_width_bits)));
  CHECK(info.peak_bandwidth_bytes_per_s > 100e9);
  CHECK(info.driver_version >= info.runtime_version / 1000 * 1000);
}

TEST_CASE("the copy roof copies exactly and its poison is caught", "[gpu][roof]") {
  CudaStream stream;
  CHECK(copy_roof_bytes({300, 150, 0}) == 224);  // half of 450, down to a multiple of 16
  auto roof = prepare_copy_roof(copy_roof_bytes({3e6, 1.5e6, 0}), 42);
  roof->poison_outputs(stream.get());
  CHECK_FALSE(roof->check_outputs(stream.get()).passed);
  roof->poison_outputs(stream.get());
  roof->launch(0, stream.get());
  CHECK(roof->check_outputs(stream.get()).passed);
}

TEST_CASE("the sampler honours min and max samples and times real work", "[gpu][measure]") {
  const DeviceInfo info = query_device_info(0);
  CudaStream stream;
  L2Flusher flusher(info.l2_bytes);
  CHECK(flusher.bytes() == static_cast<std::size_t>(2 * info.l2_bytes));
  DeviceBuffer a(64 << 20), b(64 << 20);
  const LaunchFn copy = [&](cudaStream_t s) {
    KBENCH_CUDA_CALL(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice, s));
  };
  MeasureSettings settings;
  settings.min_samples = 5;
  settings.max_samples = 40;
  settings.min_time_s = 0;
  const Measurement few = measure(copy, stream.get(), settings, &flusher);
  CHECK(few.samples_ms.size() >= 5);
  CHECK(few.samples_ms.size() <= 40);
  CHECK(few.stats.min > 0);
  CHECK(few.stats.median >= few.stats.min);
  CHECK_FALSE(few.timed_out);

  settings.min_time_s = 1e9;  // unreachable: stops at max_samples
  const Measurement capped = measure(copy, stream.get(), settings, &flusher);
  CHECK(capped.samples_ms.size() == 40);
}

TEST_CASE("a plan runs end to end: every row verified, timed and kept", "[gpu][runner]") {
  Registry registry;
  register_all_ops(registry);
  Selection selection;
  selection.ops = {"add"};
  selection.shapes = {{4097}, {1 << 20}};
  selection.dtypes = {"fp16"};
  const Plan plan = make_plan(registry, selection);
  MeasureSettings settings;
  settings.min_samples = 3;
  settings.min_time_s = 0;
  settings.warmup_calls = 1;
  std::size_t callbacks = 0;
  const RunOutcome outcome =
      run_plan(plan, query_device_info(0), settings, 7, [&](const std::vector<CaseResult>&) { ++callbacks; });
  CHECK(callbacks == 2);
  REQUIRE(outcome.rows.size() == plan.row_count());
  for (const CaseResult& row : outcome.rows) {
    INFO(row.variant << " " << format_shape(row.shape) << ": " << row.message);
    CHECK(row.status == CaseStatus::passed);
    REQUIRE(row.headline() != nullptr);
    CHECK(row.headline()->stats.count >= 3);
  }
  CHECK_FALSE(outcome.context_lost);
}
