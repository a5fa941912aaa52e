"""kbench's measurement method (harness/measure/measure.cpp) in PyTorch: warm-up, batches of event
pairs, the stopping rule, and the three modes (cold, hot, eager). Every function is handed the
`torch` module; nothing here imports it."""
import gc
import math
import time

from . import settings as settings_keys, stats

BATCH = 32  # samples queued between synchronisations, as kbench


def new_timing(mode, warmup_calls):
    """A timing object of the results schema before sampling fills it (stats and the rest)."""
    return {"mode": mode, "warmup_calls": warmup_calls, "calls_per_sample": 1, "timed_out": False,
            "stop_reason": "", "l2_resident": False, "sm_clock_mhz": 0.0, "min_sm_clock_mhz": 0.0,
            "low_clock_samples": 0, "warnings": [], "stats": stats.summarize([]), "samples_ms": []}


def round_to_ns(ms):
    """`ms` rounded to the nanosecond, half away from zero, as kbench writes samples (std::round)."""
    scaled = abs(ms) * 1e6
    whole = math.floor(scaled)
    if scaled - whole >= 0.5:
        whole += 1
    return math.copysign(whole, ms) / 1e6


def keeps_samples(settings, mode):
    """Whether a timing of `mode` keeps its samples, as kbench's keep_samples says (0 none, 1 every
    mode's, 2 the headline mode's: cold when planned, else the first planned)."""
    keep = settings["keep_samples"]
    if keep == 1:
        return True
    if keep != 2:
        return False
    modes = settings_keys.parse_modes(settings["modes"])
    return mode == ("cold" if "cold" in modes else modes[0])


class Sampler:
    """Events, the L2 flush, the spinning kernel that hides host time, and the clock reader."""

    def __init__(self, torch, device, settings):
        self.torch, self.device, self.settings = torch, device, settings
        l2 = device["l2_bytes"] if device["l2_bytes"] > 0 else 32 << 20
        # Twice the L2, read by a sum: inputs that fit in L2 are evicted and no dirty line is left.
        self.flush_buffer = torch.zeros(2 * l2 // 4, dtype=torch.float32, device="cuda")
        self.flush_sink = torch.zeros((), dtype=torch.float32, device="cuda")
        self.starts = [torch.cuda.Event(enable_timing=True) for _ in range(BATCH)]
        self.stops = [torch.cuda.Event(enable_timing=True) for _ in range(BATCH)]
        self.spin_start = torch.cuda.Event(enable_timing=True)
        self.spin_end = torch.cuda.Event(enable_timing=True)
        self.can_spin = hasattr(torch.cuda, "_sleep")
        self.cycles_per_s = (device["sm_clock_khz"] or 1_500_000) * 1e3
        self.clock_readable = True
        self.peak_clock_mhz = device["sm_clock_khz"] / 1000
        self.flush()
        torch.cuda.synchronize()

    def flush(self):
        self.torch.sum(self.flush_buffer, dim=0, out=self.flush_sink)

    def clock_mhz(self):
        """The SM clock now (NVML through PyTorch), or 0 where it cannot be read."""
        if self.clock_readable:
            try:
                return float(self.torch.cuda.clock_rate(self.device["index"]))
            except Exception:  # no pynvml, no NVML, or an older PyTorch: stop asking
                self.clock_readable = False
        return 0.0

    def warm_up(self, call):
        """Calls `call` until both the warm-up count and time are reached; returns the count."""
        start, calls = time.perf_counter(), 0
        while calls < self.settings["warmup_calls"] or time.perf_counter() - start < self.settings["warmup_time_s"]:
            call()
            calls += 1
            if calls % 8 == 0 or calls >= self.settings["warmup_calls"]:
                self.torch.cuda.synchronize()
            if calls >= 1_000_000:
                break
        self.torch.cuda.synchronize()
        return calls

    def estimate_ms(self, call):
        """Median of three single timed calls: a first estimate for sizing graphs."""
        times = []
        for _ in range(3):
            self.starts[0].record()
            call()
            self.stops[0].record()
            self.stops[0].synchronize()
            times.append(self.starts[0].elapsed_time(self.stops[0]))
        return sorted(times)[1]

    def run_batches(self, timing, blocked, enqueue):
        """Samples in batches of BATCH until the stopping rule ends sampling; fills `timing`.
        With `blocked`, each batch waits behind a spinning kernel that lasts twice as long as the
        host took to queue the previous batch (5 ms for the first)."""
        torch, settings = self.torch, self.settings
        rule = stats.StoppingRule(settings)
        samples, clocks, measured_s = [], [], 0.0
        spin_s, host_in_window = 0.005, False
        start = time.perf_counter()
        gc.disable()  # no collection pauses while a batch is queued
        try:
            while True:
                batch = min(BATCH, settings["max_samples"] - len(samples))
                spinning = blocked and self.can_spin
                if spinning:
                    self.spin_start.record()
                    torch.cuda._sleep(int(spin_s * self.cycles_per_s))
                    self.spin_end.record()
                queued_from = time.perf_counter()
                for i in range(batch):
                    enqueue(self.starts[i], self.stops[i])
                queue_s = time.perf_counter() - queued_from
                torch.cuda.synchronize()
                if spinning:
                    host_in_window |= self.spin_start.elapsed_time(self.spin_end) * 1e-3 < queue_s
                    spin_s = max(0.0005, 2 * queue_s)
                for i in range(batch):
                    ms = self.starts[i].elapsed_time(self.stops[i])
                    samples.append(ms / timing["calls_per_sample"])
                    measured_s += ms * 1e-3
                clock = self.clock_mhz()
                if clock > 0:
                    clocks.append(clock)
                    if clock < settings["clock_floor"] * self.peak_clock_mhz:
                        timing["low_clock_samples"] += batch
                if rule.should_stop(samples, measured_s, time.perf_counter() - start):
                    break
        finally:
            gc.enable()
        timing["stop_reason"], timing["timed_out"] = rule.reason, rule.timed_out
        timing["stats"] = stats.summarize(samples)
        if keeps_samples(settings, timing["mode"]):
            timing["samples_ms"] = [round_to_ns(ms) for ms in samples]
        if clocks:
            timing["sm_clock_mhz"] = stats.summarize(clocks)["median_ms"]
            timing["min_sm_clock_mhz"] = min(clocks)
        warnings = timing["warnings"]
        if timing["low_clock_samples"]:
            warnings.append(f"{timing['low_clock_samples']} of {len(samples)} samples ran with the SM clock below "
                            f"{100 * settings['clock_floor']:.0f}% of its {self.peak_clock_mhz:.0f} MHz peak "
                            f"(lowest {min(clocks):.0f} MHz)")
        if blocked and not self.can_spin:
            warnings.append("this PyTorch has no torch.cuda._sleep: host dispatch time may fall inside event windows")
        if host_in_window:
            warnings.append("the host took longer to queue a batch than the spinning kernel waited: "
                            "some event windows may include host time")
        if timing["timed_out"]:
            warnings.append(f"only {len(samples)} samples before the {settings['timeout_s']:g} s timeout")

    def measure(self, mode, call, working_set_bytes):
        """One mode's timing object for `call`."""
        timing = new_timing(mode, self.warm_up(call))
        if mode == "cold":
            flush = self.settings["flush_l2"] != 0

            def enqueue(begin, end):
                if flush:
                    self.flush()
                begin.record()
                call()
                end.record()
            self.run_batches(timing, True, enqueue)
        elif mode == "hot":
            calls = int(min(max(math.ceil(1.0 / max(self.estimate_ms(call), 1e-6)), 2), 1000))
            timing["calls_per_sample"] = calls
            timing["l2_resident"] = working_set_bytes <= self.device["l2_bytes"]
            graph = self.torch.cuda.CUDAGraph()
            with self.torch.cuda.graph(graph):
                for _ in range(calls):
                    call()
            graph.replay()  # the first replay uploads the graph
            self.torch.cuda.synchronize()

            def enqueue(begin, end):
                begin.record()
                graph.replay()
                end.record()
            self.run_batches(timing, True, enqueue)
            del graph
        else:
            def enqueue(begin, end):
                begin.record()
                call()
                end.record()
            self.run_batches(timing, False, enqueue)
        return timing


def count_kernels(torch, call):
    """Kernels (and memsets/copies) one call puts on the GPU, from torch.profiler."""
    from torch.profiler import ProfilerActivity, profile
    call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    count = sum(1 for event in prof.events() if event.device_type == torch.autograd.DeviceType.CUDA)
    if count == 0:
        raise RuntimeError("the profiler saw no GPU activity")
    return count
