#!/usr/bin/env python3
"""PyTorch side by side with kbench: runs a kbench sweep config's cases in PyTorch and writes a
results file in kbench's schema (version 1), so that

    kbench report run.json --against torch.json

adds a "vs torch" column (torch's time / kbench's time) to the report.

usage: torch_baseline.py --config FILE [--json OUT [--force]] [--op OPS] [--size CLASSES]
                         [--dtype DTYPES] [--compile] [--device N] [--seed N] [--peak-bw GBPS]
                         [--thresholds FILE] [--dry-run] [measurement options as kbench's]

Cases. The config is expanded as `kbench --config FILE --dry-run` expands it (kbenchpy/sweep.py):
the same problems in the same order, `--op`, `--size` and `--dtype` narrowing them as they
narrow kbench's. A skip without `variant` skips the case; one naming `torch_eager` or
`torch_compile` skips that row; skips naming kbench's variants do not apply here.

Rows. Each case gets a row `torch_eager` (the op as a PyTorch user writes it) and, with
`--compile`, a row `torch_compile` (the same function through torch.compile(dynamic=False),
compiled afresh for each case). Their role is "baseline": they are reference implementations,
so that `kbench report --against` takes the fastest of them for each case and `kbench gate`
holds none of them to kbench's thresholds.

    add        a + b                        softmax    torch.softmax(x, dim=-1)
    sum_full   x.sum()                      gelu_tanh  F.gelu(x, approximate="tanh")
    sum_inner  x.sum(dim=-1)                gelu_erf   F.gelu(x)
    sum_outer  x.sum(dim=(0, ..., n-2))     matmul     A @ B, A MxK and B KxN for shape MxNxK
    max_inner  x.amax(dim=-1)

Outputs are in the input's dtype, as kbench's (PyTorch accumulates fp16 and bf16 reductions in
fp32, as kbench does). Matmul tf32 runs fp32 tensors with TF32 allowed in cuBLAS; matmul fp32
runs with TF32 disallowed; fp16 and bf16 use PyTorch's defaults.

Correctness. Inputs are drawn at random (uniform in kbench's ranges: [-1, 1), softmax
[-4, 4), GELU [-5, 5)) from a seed per problem. Each variant's output is compared element by
element with a float64 PyTorch reference computed from the same inputs:
|out - ref| <= abs + rel |ref| + scaled * scale, where scale is the sum of the absolute terms
for sums and matmul, |x| for the elementwise ops. The tolerances (TOLERANCES) are looser than
kbench's own: they catch a wrong result, not a last-bit difference. A row outside them is
`incorrect` and is not timed.

Method (kbench's, harness/measure/measure.cpp). Per variant and mode: warm up (at least
`warmup_calls` calls for at least `warmup_time_s`), then take samples in batches of 32 until the
stopping rule (kbenchpy/stats.py) ends sampling: at least `min_samples` samples and
`min_time_s` of measured time, then until the relative IQR is at or below `max_noise` or has
settled; `max_samples` and `timeout_s` end it regardless. The median is the headline.
  cold   (the headline, and the only mode `--against` compares): each sample is
         [L2 flush] [start event] [one call] [stop event]. The flush sums a zeroed buffer of twice
         the L2 size: it reads, as kbench's does. Each batch is queued behind
         torch.cuda._sleep, a kernel that spins for twice as long as the host took to queue the
         previous batch (5 ms for the first), so that host dispatch time stays outside the event
         windows (a warning in the timing says when the spin was too short).
  hot    N back-to-back calls captured in a CUDA graph (a replay lasts about 1 ms); each sample
         is one replay divided by N.
  eager  one event pair around each call, nothing hiding the host's dispatch: what a program
         calling PyTorch op by op sees.
The SM clock is read through NVML (torch.cuda.clock_rate) after each batch where available;
otherwise the clock fields are 0. After the run, each case is called once more under
torch.profiler to count the kernels one call launches (kernels_per_call; 1 with a note in the
row's message where the profiler is unavailable, and with --no-kernel-count).

Derived figures (bandwidth, FLOP/s, efficiency, bound, band, speed ratio) are computed as
harness/results/metrics.cpp computes them, from the traffic the op declares in kbench (kbenchpy/ops.py)
and the thresholds file. The device block takes the attributes kbench reads (clocks, bus width,
ECC, driver version, PCI address) from the CUDA driver (libcuda's cuDeviceGetAttribute), and the
rest, or all where libcuda cannot be loaded, from torch.cuda.get_device_properties. Peak
bandwidth is 2 x memory clock x bus width / 8 as kbench computes it; where neither source gives
the memory clock and bus width it is 0 and `peak_bandwidth_source` says why. The `kbench` block
describes this script: its git commit, PyTorch's version and build, Python's version.

Exit codes: 0 every row passed or was skipped; 1 a row was incorrect or an error, or the CUDA
context was lost; 2 bad usage, config or thresholds file; 3 no PyTorch or no CUDA device;
130 interrupted (SIGINT/SIGTERM): finished rows are kept in the --json file.

PyTorch is imported only to run cases: --help, --dry-run and the tests need no PyTorch.
"""
import argparse
import datetime
import gc
import math
import os
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time

from kbenchpy import results, settings as settings_table, stats, sweep, thresholds as bands
from kbenchpy.dtypes import dtype_size
from kbenchpy.ops import OPS, element_count, format_shape

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_THRESHOLDS = os.path.join(HERE, os.pardir, "configs", "thresholds.json")
VARIANTS = ("torch_eager", "torch_compile")
BATCH = 32  # samples queued between synchronisations, as kbench

EXIT_OK, EXIT_CASE_FAILED, EXIT_USAGE, EXIT_NO_DEVICE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

#: Input ranges per op (kbench's: kernels/*/..._op.cpp); others draw from [-1, 1).
INPUT_RANGES = {"softmax": (-4.0, 4.0), "gelu_tanh": (-5.0, 5.0), "gelu_erf": (-5.0, 5.0)}

#: (abs, rel, scaled) per op kind and dtype: |out - ref| <= abs + rel |ref| + scaled * scale.
TOLERANCES = {
    "elementwise": {"fp32": (1e-7, 2e-5, 1e-6), "fp16": (1e-6, 2e-3, 5e-4), "bf16": (1e-6, 1.6e-2, 4e-3)},
    "softmax": {"fp32": (1e-7, 2e-5, 0.0), "fp16": (1e-6, 2e-3, 0.0), "bf16": (1e-6, 1.6e-2, 0.0)},
    "sum": {"fp32": (0.0, 1e-5, 2e-5), "fp16": (0.0, 2e-3, 2e-5), "bf16": (0.0, 1.6e-2, 2e-5)},
    "max": {"fp32": (0.0, 0.0, 0.0), "fp16": (0.0, 0.0, 0.0), "bf16": (0.0, 0.0, 0.0)},
    # fp16/bf16: PyTorch allows reduced-precision split-K reductions by default.
    "matmul": {"fp32": (0.0, 1e-5, 1e-5), "tf32": (0.0, 0.0, 4e-3), "fp16": (0.0, 2e-3, 2e-3),
               "bf16": (0.0, 1.6e-2, 1.6e-2)},
}
TOLERANCE_KIND = {"add": "elementwise", "gelu_tanh": "elementwise", "gelu_erf": "elementwise", "softmax": "softmax",
                  "sum_full": "sum", "sum_inner": "sum", "sum_outer": "sum", "max_inner": "max", "matmul": "matmul"}


class UsageError(Exception):
    """Bad command line, config or thresholds file: exit code 2."""


class NoDevice(Exception):
    """No PyTorch, or no CUDA device: exit code 3."""


# ---- command line ----------------------------------------------------------------------------

def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="torch_baseline.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run a kbench sweep config's cases in PyTorch and write a kbench results file "
                    "(schema 1) for `kbench report RUN.json --against TORCH.json`.",
        epilog="The method, the ops' PyTorch equivalents and the tolerances are in this script's docstring.")
    parser.add_argument("--config", required=True, metavar="FILE", help="a kbench sweep config (configs/README.md)")
    parser.add_argument("--json", metavar="OUT", help="write the results document here (rewritten after every problem)")
    parser.add_argument("--force", action="store_true", help="replace an existing --json file")
    parser.add_argument("--op", action="append", default=[], metavar="OPS",
                        help="ops or families (sum, gelu), comma-separated or repeated: narrow the config")
    parser.add_argument("--size", action="append", default=[], metavar="CLASSES",
                        help="size classes, comma-separated or repeated: narrow the config")
    parser.add_argument("--dtype", action="append", default=[], metavar="DTYPES",
                        help="fp32, fp16, bf16, tf32 or all, comma-separated or repeated: narrow the config")
    parser.add_argument("--compile", action="store_true", help="also run each case through torch.compile")
    parser.add_argument("--device", type=int, default=0, metavar="N", help="CUDA device index (default 0)")
    parser.add_argument("--seed", type=int, metavar="N", help="seed of the random inputs (default: fresh)")
    parser.add_argument("--peak-bw", type=float, default=0.0, metavar="GBPS",
                        help="peak bandwidth to compute efficiency against (default: from the device)")
    parser.add_argument("--thresholds", default=DEFAULT_THRESHOLDS, metavar="FILE",
                        help="thresholds file for the rows' bands (default: configs/thresholds.json)")
    parser.add_argument("--no-kernel-count", action="store_true",
                        help="skip the profiler pass that counts kernels per call (kernels_per_call is then 1)")
    parser.add_argument("--dry-run", action="store_true", help="list the cases and rows, touch no GPU")
    group = parser.add_argument_group("measurement (override the config's settings; kbench's defaults)")
    for row in settings_table.TABLE:
        group.add_argument(row.option, dest=row.key, type=row.kind, metavar="MODES" if row.kind is str else row.unit.upper(),
                           help=f"{row.help} (default {row.default})")
    return parser.parse_args(argv)


def split_list(values):
    """["a,b", "c"] -> ["a", "b", "c"]."""
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def measurement_settings(args, config):
    """kbench's defaults, then the config's settings, then the command line's."""
    merged = dict(config.settings)
    for row in settings_table.TABLE:
        value = getattr(args, row.key)
        if value is not None:
            merged[row.key] = value
    problem = settings_table.validate(merged)
    if problem:
        raise UsageError(problem)
    return merged


def same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output_path(args):
    if not args.json:
        return
    folder = os.path.dirname(args.json)
    if folder and not os.path.isdir(folder):
        raise UsageError(f"--json: folder '{folder}' does not exist")
    for name in (args.config, args.thresholds):
        if same_file(args.json, name):
            raise UsageError(f"--json: refusing to write '{args.json}': it is the input file '{name}'")
    if os.path.exists(args.json) and not args.force:
        raise UsageError(f"--json: '{args.json}' exists; give --force to replace it")


# ---- device and build blocks -------------------------------------------------------------------

_CU_ATTRIBUTES = {"sm_clock_khz": 13, "ecc_enabled": 32, "memory_clock_khz": 36, "bus_width_bits": 37}


def driver_attributes(index):
    """What the CUDA driver API says of device `index`: the attributes above, driver_version and
    pci_bus_id; {} where libcuda cannot be loaded. PyTorch has initialised the driver already."""
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return {}
    found = {}
    device, value = ctypes.c_int(), ctypes.c_int()
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGet(ctypes.byref(device), index) != 0:
        return {}
    for key, attribute in _CU_ATTRIBUTES.items():
        if cuda.cuDeviceGetAttribute(ctypes.byref(value), attribute, device) == 0:
            found[key] = value.value
    if cuda.cuDriverGetVersion(ctypes.byref(value)) == 0:
        found["driver_version"] = value.value
    bus_id = ctypes.create_string_buffer(32)
    if cuda.cuDeviceGetPCIBusId(bus_id, len(bus_id), device) == 0:
        found["pci_bus_id"] = bus_id.value.decode()
    return found


def device_block(torch, index, peak_bw_override):
    """The results file's `device` object for CUDA device `index`."""
    props = torch.cuda.get_device_properties(index)
    driver = driver_attributes(index)

    def attribute(key, name):
        """The driver's attribute (what kbench reads), else PyTorch's property of that name, else 0."""
        value = driver.get(key) or getattr(props, name, 0)
        return value if isinstance(value, int) and value > 0 else 0

    pci = driver.get("pci_bus_id")
    if not pci and hasattr(props, "pci_bus_id"):
        pci = f"{getattr(props, 'pci_domain_id', 0):04X}:{props.pci_bus_id:02X}:{getattr(props, 'pci_device_id', 0):02X}.0"
    cuda_version = (torch.version.cuda or "0.0").split(".")
    device = {
        "index": index, "name": props.name, "pci_bus_id": pci or "unknown",
        "compute_capability": f"{props.major}.{props.minor}", "sm_count": props.multi_processor_count,
        "l2_bytes": int(getattr(props, "L2_cache_size", 0)), "global_memory_bytes": int(props.total_memory),
        "sm_clock_khz": attribute("sm_clock_khz", "clock_rate"),
        "memory_clock_khz": attribute("memory_clock_khz", "memory_clock_rate"),
        "bus_width_bits": attribute("bus_width_bits", "memory_bus_width"),
        "ecc_enabled": bool(driver.get("ecc_enabled", 0)),
        "driver_version": int(driver.get("driver_version", 0)),
        "runtime_version": int(cuda_version[0]) * 1000 + int(cuda_version[1]) * 10,
    }
    results.fill_peaks(device)
    if peak_bw_override > 0:
        device["peak_bandwidth_gbps"] = peak_bw_override
        device["peak_bandwidth_source"] = "override"
    return device


def git_state():
    """(commit, dirty) of the checkout this script lives in; "unknown" outside one. As for kbench's
    build (cmake/KbenchWriteBuildInfo.cmake), KBENCH_GIT_COMMIT and KBENCH_GIT_DIRTY name them for a
    copy whose .git is missing or stale (a lent GPU machine's)."""
    commit = os.environ.get("KBENCH_GIT_COMMIT", "")
    if re.fullmatch(r"[0-9a-f]+", commit):
        dirty = os.environ.get("KBENCH_GIT_DIRTY", "")
        return commit, dirty if dirty in ("true", "false") else "unknown"
    def git(*args):
        return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True, timeout=10, check=True).stdout
    try:
        commit = git("rev-parse", "HEAD").strip()
        dirty = "true" if git("status", "--porcelain", "--untracked-files=no").strip() else "false"
        return commit, dirty
    except (OSError, subprocess.SubprocessError):
        return "unknown", "unknown"


def build_block(torch):
    """The results file's `kbench` object, describing this script and the PyTorch it ran."""
    commit, dirty = git_state()
    debug = bool(getattr(torch.version, "debug", False))
    # "sm_90" -> "90-real", "compute_90" -> "90-virtual", as CMAKE_CUDA_ARCHITECTURES spells them
    arches = [arch.split("_")[-1] + ("-virtual" if arch.startswith("compute") else "-real")
              for arch in torch.cuda.get_arch_list()]
    return {"version": f"torch_baseline.py, PyTorch {torch.__version__}", "git_commit": commit, "git_dirty": dirty,
            "build_type": "Debug" if debug else "Release", "optimized": not debug, "device_debug": False,
            "cuda_architectures": ",".join(arches),
            "cxx_compiler": f"Python {sys.version.split()[0]}", "cuda_compiler": f"CUDA {torch.version.cuda}"}


# ---- the ops in PyTorch -------------------------------------------------------------------------

def torch_ops(torch):
    """Op name -> the PyTorch function a user writes for it. Built once PyTorch is imported; the
    functions use no import statement, so torch.compile traces them plainly."""
    functional = torch.nn.functional

    def add(a, b):
        return a + b

    def sum_full(x):
        return x.sum()

    def sum_inner(x):
        return x.sum(dim=-1)

    def sum_outer(x):
        return x.sum(dim=tuple(range(x.dim() - 1)))

    def max_inner(x):
        return x.amax(dim=-1)

    def softmax(x):
        return torch.softmax(x, dim=-1)

    def gelu_tanh(x):
        return functional.gelu(x, approximate="tanh")

    def gelu_erf(x):
        return functional.gelu(x)

    def matmul(a, b):
        return a @ b

    return {"add": add, "sum_full": sum_full, "sum_inner": sum_inner, "sum_outer": sum_outer, "max_inner": max_inner,
            "softmax": softmax, "gelu_tanh": gelu_tanh, "gelu_erf": gelu_erf, "matmul": matmul}


def make_inputs(torch, case, seed, device):
    """The case's input tensors, uniform in the op's range, drawn from `seed`."""
    generator = torch.Generator(device=device)
    generator.manual_seed(seed & (2**63 - 1))
    dtype = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[case.dtype]
    low, high = INPUT_RANGES.get(case.op, (-1.0, 1.0))

    def uniform(shape):
        x = torch.rand(shape, generator=generator, device=device, dtype=torch.float32)
        return (x * (high - low) + low).to(dtype)

    if case.op == "matmul":
        m, n, k = case.shape
        return [uniform((m, k)), uniform((k, n))]
    if case.op == "add":
        return [uniform(case.shape), uniform(case.shape)]
    return [uniform(case.shape)]


def reference(torch, op, inputs):
    """(float64 reference output, float64 scale or None), from the exact input values."""
    x = [t.double() for t in inputs]
    if op == "add":
        return x[0] + x[1], x[0].abs() + x[1].abs()
    if op == "matmul":
        return x[0] @ x[1], x[0].abs() @ x[1].abs()
    if op in ("sum_full", "sum_inner", "sum_outer"):
        fn = torch_ops(torch)[op]
        return fn(x[0]), fn(x[0].abs())
    if op == "max_inner":
        return x[0].amax(dim=-1), None
    if op == "softmax":
        return torch.softmax(x[0], dim=-1), None
    if op == "gelu_tanh":
        v = x[0]
        return 0.5 * v * (1 + torch.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3))), v.abs()
    if op == "gelu_erf":
        v = x[0]
        return 0.5 * v * torch.special.erfc(-v / math.sqrt(2)), v.abs()
    raise KeyError(op)


def verify(torch, output, ref, scale, tolerance):
    """(passed, verification dict, message), as kbench's compare_with_reference."""
    out = output.reshape(-1).double()
    ref = ref.reshape(-1)
    if out.numel() != ref.numel():
        return False, results.empty_verification(), f"output has {out.numel()} elements, reference {ref.numel()}"
    absolute, relative, scaled = tolerance
    bound = absolute + relative * ref.abs()
    if scale is not None:
        bound = bound + scaled * scale.reshape(-1)
    finite = torch.isfinite(out)
    error = torch.where(finite, (out - ref).abs(), torch.zeros_like(out))
    bad = ~(finite & (error <= bound))
    mismatches = int(bad.sum())
    max_error = float(error.max()) if error.numel() else 0.0
    ref_norm = float(ref.square().sum())
    error_norm = float(error.square().sum())
    rel_l2 = math.sqrt(error_norm / ref_norm) if ref_norm > 0 else math.sqrt(error_norm)
    verification = {"mismatches": mismatches, "max_abs_error": max_error, "rel_l2_error": rel_l2}
    if mismatches == 0:
        return True, verification, f"ok: {out.numel()} elements, max |err| {max_error:.3g}, rel L2 err {rel_l2:.3g}"
    first = int(bad.nonzero()[0, 0])
    return False, verification, (f"{mismatches} of {out.numel()} elements outside tolerance (first at {first}: "
                                 f"got {float(out[first]):.8g}, expected {float(ref[first]):.8g})")


def set_tf32(torch, enabled):
    """Allows or forbids TF32 in fp32 matmuls (PyTorch's newer fp32_precision where it exists)."""
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):
        matmul.fp32_precision = "tf32" if enabled else "ieee"
    else:
        matmul.allow_tf32 = enabled


def make_callable(torch, ops, variant, op):
    """The function a variant calls: the op itself (from torch_ops), or torch.compile of it,
    compiled afresh."""
    fn = ops[op]
    if variant == "torch_eager":
        return fn
    torch._dynamo.reset()  # a fresh compile per case: no recompile limit, no guards of other cases
    return torch.compile(fn, dynamic=False)


# ---- measurement ---------------------------------------------------------------------------------

def new_timing(mode, warmup_calls):
    """A timing object of the results schema before sampling fills it (stats and the rest)."""
    return {"mode": mode, "warmup_calls": warmup_calls, "calls_per_sample": 1, "timed_out": False,
            "stop_reason": "", "l2_resident": False, "sm_clock_mhz": 0.0, "min_sm_clock_mhz": 0.0,
            "low_clock_samples": 0, "warnings": [], "stats": stats.summarize([]), "samples_ms": []}


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
        if settings["keep_samples"]:
            timing["samples_ms"] = samples
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


# ---- the run ----------------------------------------------------------------------------------

def mix_seed(seed, index):
    """SplitMix-style mixing so that neighbouring problems get unrelated inputs (as kbench)."""
    mask = 2**64 - 1
    z = (seed + 0x9E3779B97F4A7C15 * (index + 1)) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def format_ms(ms):
    if ms <= 0:
        return "-"
    return f"{ms * 1e3:.2f} µs" if ms < 1 else f"{ms:.3f} ms"


def plan_rows(config, plan, variants):
    """Every row the run will report, in order: [(case, [row, ...])], skipped rows included."""
    planned = []
    for case in plan.cases + [case for case, _ in plan.skipped]:
        traffic = OPS[case.op].traffic(case.shape, case.dtype)
        rows = [results.new_row(case.op, variant, "baseline", 1, case.dtype, case.size_class, case.shape,
                                element_count(case.shape), traffic) for variant in variants]
        whole = next((reason for c, reason in plan.skipped if c == case), None)
        for row in rows:
            reason = whole or sweep.row_skip(config, case, row["variant"])
            if reason:
                row["message"] = reason
        planned.append((case, rows))
    return planned


class Run:
    """One run of a plan: the device, settings and rows, and the document they make."""

    def __init__(self, torch, args, command_line, settings, thresholds):
        self.torch, self.args, self.settings, self.thresholds = torch, args, settings, thresholds
        self.ops = torch_ops(torch)
        self.device = device_block(torch, args.device, args.peak_bw)
        self.build = build_block(torch)
        self.seed = args.seed if args.seed is not None else secrets.randbits(64)
        self.utc_time = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.command_line = command_line
        self.sampler = None
        self.context_lost = False

    def document(self, cases, run_state):
        return results.make_document(self.build, self.command_line, self.utc_time, socket.gethostname(), self.seed,
                                      run_state, self.device, self.settings, cases, self.thresholds)

    def save(self, cases, run_state):
        """The document so far, also written to --json when given."""
        document = self.document(cases, run_state)
        if self.args.json:
            results.write_results(document, self.args.json)
        return document

    def context_alive(self):
        try:
            self.torch.ones(1, device="cuda").add_(1)
            self.torch.cuda.synchronize()
            return True
        except Exception:
            return False

    def fail(self, row, error):
        """Marks `row` as an error with the exception's first line; notes a lost CUDA context."""
        lines = str(error).strip().splitlines()
        row["status"], row["message"] = "error", f"{type(error).__name__}: {lines[0] if lines else 'no message'}"
        if isinstance(error, self.torch.cuda.OutOfMemoryError):
            self.torch.cuda.empty_cache()
        elif not self.context_alive():
            self.context_lost = True

    def lacks_memory(self, case):
        """Empty when the device has room for the case and its float64 reference, else why not."""
        traffic = OPS[case.op].traffic(case.shape, case.dtype)
        total = traffic["bytes_read"] + traffic["bytes_written"]
        needed = total * (1 + 3 * 8 / dtype_size(case.dtype)) + (256 << 20)
        free, _ = self.torch.cuda.mem_get_info()
        return "" if needed <= free else f"needs about {needed / 2**20:.0f} MiB of device memory, {free / 2**20:.0f} MiB free"

    def run_case(self, case, rows, seed):
        """Verifies, then times, each row of the case that is not skipped."""
        torch = self.torch
        todo = [row for row in rows if row["message"] == "not run"]
        if not todo:
            return
        why = self.lacks_memory(case)
        if why:
            for row in todo:
                row["message"] = "skipped: " + why
            return
        if case.op == "matmul":
            set_tf32(torch, case.dtype == "tf32")
        inputs = make_inputs(torch, case, seed, "cuda")
        ref, scale = reference(torch, case.op, inputs)
        tolerance = TOLERANCES[TOLERANCE_KIND[case.op]][case.dtype]
        calls = {}
        for row in todo:
            try:
                fn = make_callable(torch, self.ops, row["variant"], case.op)
                passed, row["verification"], row["message"] = verify(torch, fn(*inputs), ref, scale, tolerance)
                if passed:
                    calls[row["variant"]] = fn
                else:
                    row["status"] = "incorrect"
            except Exception as error:  # a compile failure, an OOM, a CUDA error
                self.fail(row, error)
                if self.context_lost:
                    return
        del ref, scale
        working_set = rows[0]["traffic"]["bytes_read"] + rows[0]["traffic"]["bytes_written"]
        for row in todo:
            if row["variant"] not in calls:
                continue
            fn = calls[row["variant"]]
            failures = ""
            for mode in settings_table.parse_modes(self.settings["modes"]):
                try:
                    row["timings"].append(self.sampler.measure(mode, lambda: fn(*inputs), working_set))
                except Exception as error:
                    if not self.context_alive():
                        self.fail(row, error)
                        return
                    failures += f"; {mode} mode not measured: {type(error).__name__}: {error}"
            row["status"] = "passed" if row["timings"] else "error"
            row["message"] = row["message"] + failures if row["timings"] else "no mode could be measured" + failures

    def count_kernels(self, planned):
        """Sets kernels_per_call of every passed row from one profiled call."""
        for p, (case, rows) in enumerate(planned):
            passed = [row for row in rows if row["status"] == "passed"]
            if not passed:
                continue
            if case.op == "matmul":
                set_tf32(self.torch, case.dtype == "tf32")
            inputs = make_inputs(self.torch, case, mix_seed(self.seed, p), "cuda")
            for row in passed:
                fn = make_callable(self.torch, self.ops, row["variant"], case.op)
                try:
                    row["kernels_per_call"] = count_kernels(self.torch, lambda: fn(*inputs))
                except Exception as error:
                    row["message"] += f"; kernels per call not counted: {type(error).__name__}: {error}"

    def execute(self, planned):
        """Runs every case; returns the exit code. The --json file is rewritten after every problem."""
        torch = self.torch
        print(f"Device {self.device['index']}: {self.device['name']} (sm_{self.device['compute_capability'].replace('.', '')}, "
              f"{self.device['sm_count']} SMs); peak bandwidth {self.device['peak_bandwidth_gbps']:.0f} GB/s "
              f"({self.device['peak_bandwidth_source']}); PyTorch {torch.__version__}, CUDA {torch.version.cuda}")
        self.sampler = Sampler(torch, self.device, self.settings)
        cases = [row for _, rows in planned for row in rows]
        interrupted = False
        for p, (case, rows) in enumerate(planned):
            to_run = [row for row in rows if row["message"] == "not run"]
            if self.context_lost or interrupted:
                why = "the CUDA context was lost in an earlier case" if self.context_lost else \
                    "the run was interrupted (SIGINT or SIGTERM) before this case"
                for row in to_run:
                    row["message"] = "skipped: " + why
                continue
            try:
                self.run_case(case, rows, mix_seed(self.seed, p))
                print(f"[{p + 1}/{len(planned)}] {case.label()}", file=sys.stderr)
                self.print_rows(rows)
                self.save(cases, "in_progress")
            except KeyboardInterrupt:
                interrupted = True
                for row in to_run:
                    if row["status"] == "skipped":  # not finished: drop what it measured
                        row.update(message="skipped: the run was interrupted (SIGINT or SIGTERM) before this row",
                                   timings=[], verification=results.empty_verification())
        if not (interrupted or self.context_lost or self.args.no_kernel_count):
            try:
                self.count_kernels(planned)
            except KeyboardInterrupt:
                interrupted = True
        run_state = "interrupted" if interrupted else "context_lost" if self.context_lost else "complete"
        document = self.save(cases, run_state)
        if self.args.json:
            print(f"Results written to {self.args.json} ({run_state})")
        if interrupted:
            print("torch_baseline.py: interrupted: finished rows are kept", file=sys.stderr)
            return EXIT_INTERRUPTED
        failed = any(row["status"] in ("incorrect", "error") for row in document["cases"])
        return EXIT_CASE_FAILED if failed or self.context_lost else EXIT_OK

    def print_rows(self, rows):
        results.derive_metrics(rows, self.device, self.thresholds)
        for row in rows:
            line = f"  {row['op']} {row['dtype']} {format_shape(row['shape'])} {row['variant']}: "
            if row["status"] != "passed":
                print(line + f"{row['status'].upper()}: {row['message']}")
                continue
            times = ", ".join(f"{t['mode']} {format_ms(t['stats']['median_ms'])}" for t in row["timings"])
            d = row["derived"]
            print(line + f"{times}; {d['bandwidth_gbps']:.0f} GB/s, {d['tflops']:.2f} TFLOP/s, "
                         f"{100 * d['efficiency']:.1f}% of peak ({d['bound']}-bound), {d['band']}")


def dry_run(plan, planned):
    """Prints the cases and their rows as `kbench --dry-run` does, then the counts."""
    for case, rows in planned:
        runs = [row["variant"] for row in rows if row["message"] == "not run"]
        if runs:
            print(f"{case.label()}: {', '.join(runs)}")
        skipped = {}  # reason -> variants
        for row in rows:
            if row["message"] != "not run":
                skipped.setdefault(row["message"], []).append(row["variant"])
        for reason, variants in skipped.items():
            print(f"{case.label()}: SKIPPED {', '.join(variants)}: {reason}")
    rows = sum(1 for _, rs in planned for row in rs if row["message"] == "not run")
    skipped = sum(1 for _, rs in planned for row in rs if row["message"] != "not run")
    print(f"{len(plan.cases)} problems, {rows} rows" + (f"; {skipped} rows skipped by the config" if skipped else ""))


def import_torch(device_index):
    """PyTorch, with CUDA device `device_index` current; NoDevice when either is missing."""
    try:
        import torch
    except ImportError as error:
        raise NoDevice(f"PyTorch is not installed for {sys.executable} ({error})") from None
    if not torch.cuda.is_available():
        raise NoDevice("no CUDA device: torch.cuda.is_available() is False")
    if not 0 <= device_index < torch.cuda.device_count():
        raise UsageError(f"--device {device_index}: there are {torch.cuda.device_count()} CUDA devices")
    torch.cuda.set_device(device_index)
    return torch


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    try:
        config = sweep.load_config(args.config)
        filters = sweep.Filters(split_list(args.op), split_list(args.size), split_list(args.dtype))
        plan = sweep.make_plan(config, filters)
        settings = measurement_settings(args, config)
        variants = VARIANTS if args.compile else VARIANTS[:1]
        planned = plan_rows(config, plan, variants)
        if args.dry_run:
            dry_run(plan, planned)
            return EXIT_OK
        thresholds = bands.load_thresholds(args.thresholds)
        check_output_path(args)
        torch = import_torch(args.device)
    except (sweep.ConfigError, bands.ThresholdsError, UsageError, ValueError) as error:
        print(f"torch_baseline.py: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except NoDevice as error:
        print(f"torch_baseline.py: error: {error}", file=sys.stderr)
        return EXIT_NO_DEVICE
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # SIGTERM stops like Ctrl-C
    try:
        command_line = shlex.join(["python3", sys.argv[0]] + argv)
        return Run(torch, args, command_line, settings, thresholds).execute(planned)
    except KeyboardInterrupt:  # before the first case: nothing to keep
        print("torch_baseline.py: interrupted before the first case", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
