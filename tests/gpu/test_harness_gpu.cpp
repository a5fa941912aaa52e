// The harness's own GPU parts: device query, the copy roof, L2 flush and the sampler.
#include "harness/ops/copy_roof.hpp"
#include "harness/device/cuda_check.hpp"
#include "harness/measure/gpu_timers.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_info.hpp"
#include "harness/measure/l2_flush.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/registry.hpp"
#include "harness/measure/runner.hpp"
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

TEST_CASE("the copy roof copies exactly", "[gpu][roof]") {
  CudaStream stream;
  CHECK(copy_roof_bytes({300, 150, 0}) == 224);  // half of 450, down to a multiple of 16
  auto roof = prepare_copy_roof(copy_roof_bytes({3e6, 1.5e6, 0}), 42);
  CHECK(roof->verify(0, stream.get()).passed);
}

namespace {
/// The shared measurement resources for device 0.
struct Harness {
  DeviceInfo info = query_device_info(0);
  CudaStream stream;
  MeasureResources resources{stream.get(), info.l2_bytes, info.sm_clock_khz, true};
  const MeasureContext& context() const { return resources.context(); }
};
}  // namespace

TEST_CASE("the sampler honours min and max samples in every mode and times real work", "[gpu][measure]") {
  Harness h;
  CHECK(h.context().flusher->bytes() == static_cast<std::size_t>(2 * h.info.l2_bytes));
  DeviceBuffer a(64 << 20), b(64 << 20);
  const LaunchFn copy = [&](cudaStream_t s) {
    KBENCH_CUDA_CALL(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice, s));
  };
  MeasureSettings settings;
  settings.min_samples = 5;
  settings.max_samples = 40;
  settings.min_time_s = 0;
  settings.max_noise = 0;
  for (const MeasureMode mode : {MeasureMode::cold, MeasureMode::hot, MeasureMode::eager}) {
    INFO(mode_name(mode));
    const Measurement few = measure(mode, copy, h.context(), settings, 2.0 * a.bytes());
    CHECK(few.samples_ms.size() >= 5);
    CHECK(few.samples_ms.size() <= 40);
    CHECK(few.stats.min > 0);
    CHECK(few.stats.median >= few.stats.min);
    CHECK(few.stop_reason == "min_time");
    CHECK_FALSE(few.timed_out);
    CHECK(few.sm_clock_mhz > 100);  // the probe saw a running clock
    CHECK(few.sm_clock_mhz < 1.2 * h.info.sm_clock_khz / 1000.0);
    if (mode == MeasureMode::hot) {
      CHECK(few.calls_per_sample >= 2);  // sized from a first estimate of one call
      CHECK(few.calls_per_sample <= 1000);
    } else {
      CHECK(few.calls_per_sample == 1);
    }
    CHECK(few.warnings.empty());  // no lazy-loading stall, no low clocks, no timeout
  }
  settings.min_time_s = 1e9;  // unreachable: stops at max_samples
  const Measurement capped = measure(MeasureMode::cold, copy, h.context(), settings, 2.0 * a.bytes());
  CHECK(capped.samples_ms.size() == 40);
  CHECK(capped.stop_reason == "max_samples");
}

TEST_CASE("hot mode beats eager for a tiny kernel and flags L2 residency", "[gpu][measure]") {
  Harness h;
  DeviceBuffer a(1 << 16), b(1 << 16);
  const LaunchFn copy = [&](cudaStream_t s) {
    KBENCH_CUDA_CALL(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice, s));
  };
  MeasureSettings settings;
  settings.min_samples = 20;
  const Measurement hot = measure(MeasureMode::hot, copy, h.context(), settings, 2.0 * a.bytes());
  const Measurement eager = measure(MeasureMode::eager, copy, h.context(), settings, 2.0 * a.bytes());
  CHECK(hot.l2_resident);
  CHECK(hot.calls_per_sample > 1);
  CHECK(hot.stats.median < eager.stats.median);
}

TEST_CASE("a call that cannot be captured fails hot mode and leaves the stream usable", "[gpu][measure]") {
  Harness h;
  const LaunchFn synchronising = [&](cudaStream_t s) { KBENCH_CUDA_CALL(cudaStreamSynchronize(s)); };
  MeasureSettings settings;
  settings.min_samples = 2;
  settings.warmup_calls = 1;
  CHECK_THROWS_AS(measure(MeasureMode::hot, synchronising, h.context(), settings, 0), CudaError);
  // The stream is out of capture mode: ordinary work still runs and is timed.
  DeviceBuffer a(1 << 20), b(1 << 20);
  const LaunchFn copy = [&](cudaStream_t s) {
    KBENCH_CUDA_CALL(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice, s));
  };
  CHECK(measure(MeasureMode::cold, copy, h.context(), settings, 2.0 * a.bytes()).stats.count >= 2);
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
    REQUIRE(row.timings.size() == 3);  // cold, hot, eager
    CHECK(row.headline()->mode == MeasureMode::cold);
    CHECK(row.headline()->stats.count >= 3);
    CHECK(row.timing(MeasureMode::hot)->l2_resident);  // 1M fp16 elements: a few MB
    REQUIRE(row.first_call_ms);  // timed by verification, roof row included
    CHECK(*row.first_call_ms > 0);
  }
  CHECK_FALSE(outcome.context_lost);
}

TEST_CASE("verification times a variant's first call on its workload, and only a first call", "[gpu][runner]") {
  Registry registry;
  register_all_ops(registry);
  const Op* add = registry.select("add").at(0);
  CudaStream stream;
  const auto workload = add->prepare(Problem{{4097}, DType::f32, "custom"}, 5);
  const Verification first = workload->verify(0, stream.get());
  REQUIRE(first.passed);
  REQUIRE(first.first_call_ms);
  CHECK(*first.first_call_ms > 0);
  CHECK_FALSE(workload->verify(0, stream.get()).first_call_ms);  // verified again: not a first call
  workload->launch(1, stream.get());
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream.get()));
  const Verification after_launch = workload->verify(1, stream.get());
  CHECK(after_launch.passed);
  CHECK_FALSE(after_launch.first_call_ms);  // launched before its verification: not a first call
  auto roof = prepare_copy_roof(4096, 1);
  CHECK(roof->verify(0, stream.get()).first_call_ms);
  CHECK_FALSE(roof->verify(0, stream.get()).first_call_ms);
}

namespace {
/// The quickest settings that still time a row: cold mode, two samples, no minimum time.
MeasureSettings two_cold_samples() {
  MeasureSettings settings;
  settings.min_samples = 2;
  settings.min_time_s = 0;
  settings.modes = "cold";
  return settings;
}

/// A stand-in op that claims more device memory than any GPU has (never prepared).
class HugeOp final : public Op {
 public:
  std::string name() const override { return "huge"; }
  std::string summary() const override { return "test stand-in"; }
  std::vector<VariantInfo> variants() const override { return {{"only", VariantRole::own, ""}}; }
  std::vector<DType> dtypes() const override { return {DType::f32}; }
  std::string reject_shape(const Shape&) const override { return {}; }
  Traffic traffic(const Problem&) const override { return {8, 4, 0}; }
  double device_bytes(const Problem&) const override { return 1e15; }
  std::unique_ptr<Workload> prepare(const Problem&, std::uint64_t) const override {
    throw std::logic_error("HugeOp must never be prepared");
  }
};
}  // namespace

TEST_CASE("a case that cannot fit in device memory is skipped with the numbers; the sweep goes on", "[gpu][runner]") {
  Registry registry;
  registry.add(std::make_unique<HugeOp>());
  register_all_ops(registry);
  Selection selection;
  selection.ops = {"huge", "add"};
  selection.shapes = {{1024}};
  const Plan plan = make_plan(registry, selection);
  const RunOutcome outcome = run_plan(plan, query_device_info(0), two_cold_samples(), 3);
  REQUIRE(outcome.rows.size() == plan.row_count());
  CHECK(outcome.rows[0].status == CaseStatus::skipped);
  CHECK(contains(outcome.rows[0].message, "needs about"));
  CHECK(contains(outcome.rows[0].message, "MiB free"));
  CHECK(outcome.rows.back().status == CaseStatus::passed);  // add's copy roof still ran
}

namespace {
/// A stand-in op of two variants whose workload says this device cannot run the second one; the
/// first writes its one output element with a memset.
class PickyOp final : public Op {
 public:
  std::string name() const override { return "picky"; }
  std::string summary() const override { return "test stand-in"; }
  std::vector<VariantInfo> variants() const override {
    return {{"runs", VariantRole::own, ""}, {"needs_other_gpu", VariantRole::own, ""}};
  }
  std::vector<DType> dtypes() const override { return {DType::f32}; }
  std::string reject_shape(const Shape&) const override { return {}; }
  Traffic traffic(const Problem&) const override { return {0, 4, 0}; }
  std::unique_ptr<Workload> prepare(const Problem&, std::uint64_t) const override {
    class Picky final : public Workload {
     public:
      void launch(std::size_t variant, cudaStream_t stream) override {
        if (variant != 0) throw std::logic_error("the runner launched a variant this device cannot run");
        KBENCH_CUDA_CALL(cudaMemsetAsync(out_.get(), 0, 4, stream));
      }
      Verification verify(std::size_t variant, cudaStream_t stream) override {
        KBENCH_CUDA_CALL(cudaMemsetAsync(out_.get(), 0xFF, 4, stream));
        launch(variant, stream);
        unsigned bits = 1;
        KBENCH_CUDA_CALL(cudaMemcpyAsync(&bits, out_.get(), 4, cudaMemcpyDeviceToHost, stream));
        KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
        Verification v;
        v.passed = bits == 0;
        v.checked = 1;
        v.message = v.passed ? "ok" : "unwritten";
        return v;
      }
      std::string cannot_run(std::size_t variant) const override {
        return variant == 1 ? "built for another GPU" : std::string{};
      }

     private:
      DeviceBuffer out_{4};
    };
    return std::make_unique<Picky>();
  }
};
}  // namespace

TEST_CASE("a variant the device cannot run is skipped with the workload's reason, never launched", "[gpu][runner]") {
  Registry registry;
  registry.add(std::make_unique<PickyOp>());
  Selection selection;
  selection.ops = {"picky"};
  selection.shapes = {{1}};
  selection.with_references = false;
  const Plan plan = make_plan(registry, selection);
  const RunOutcome outcome = run_plan(plan, query_device_info(0), two_cold_samples(), 3);
  REQUIRE(outcome.rows.size() == 2);
  CHECK(outcome.rows[0].status == CaseStatus::passed);
  CHECK(outcome.rows[1].status == CaseStatus::skipped);
  CHECK(outcome.rows[1].message == "skipped: built for another GPU");
  CHECK(outcome.rows[1].timings.empty());
}

TEST_CASE("a stop request skips every row not yet run and says interrupted", "[gpu][runner]") {
  Registry registry;
  register_all_ops(registry);
  Selection selection;
  selection.ops = {"add"};
  selection.shapes = {{4096}, {8192}};
  const Plan plan = make_plan(registry, selection);
  std::atomic<bool> stop{true};
  const RunOutcome outcome = run_plan(plan, query_device_info(0), MeasureSettings{}, 3, {}, &stop);
  CHECK(outcome.interrupted);
  REQUIRE(outcome.rows.size() == plan.row_count());
  for (const CaseResult& row : outcome.rows) {
    CHECK(row.status == CaseStatus::skipped);
    CHECK(contains(row.message, "interrupted"));
  }
}
