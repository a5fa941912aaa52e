"""Results documents, schema version 1 (results/SCHEMA.md): peaks, derived figures, writing
and reading.

The derived figures are computed as harness/results/metrics.cpp computes them, from the traffic the op
declares and the headline median, so that a file written here reads in `kbench report`, `gate`
and `compare` like one kbench wrote. The peaks follow harness/device/device_info.cpp.
"""
import json
import os

from . import thresholds as bands
from .json_file import read_json

SCHEMA_VERSION = 1
STATUSES = ("passed", "incorrect", "error", "skipped")


class ResultsError(Exception):
    """A results file that cannot be used; the text names the file and the field."""


# ---- peaks, as harness/device/device_info.cpp ----------------------------------------------------------

def theoretical_bandwidth(memory_clock_khz, bus_width_bits):
    """Bytes per second: 2 (double data rate) x memory clock x bus width / 8."""
    return 2.0 * memory_clock_khz * 1e3 * bus_width_bits / 8.0


def fp32_lanes_per_sm(cc_major, cc_minor):
    """FP32 results per clock per SM (CUDA C++ Programming Guide); 0 when unknown."""
    if cc_major == 7:
        return 64
    if cc_major == 8:
        return 64 if cc_minor == 0 else 128
    if cc_major in (9, 10, 11, 12):
        return 128
    return 0


def tensor_flops_per_clock_per_sm(cc_major, cc_minor, math):
    """Dense tensor-core FLOP per clock per SM (A100, H100 whitepapers); 0 when unknown."""
    fp16, tf32 = math == "fp16_tensor", math == "tf32_tensor"
    if (cc_major, cc_minor) == (8, 0):
        return 2048 if fp16 else 1024 if tf32 else 0
    if (cc_major, cc_minor) == (9, 0):
        return 4096 if fp16 else 2048 if tf32 else 0
    return 0


def fill_peaks(device):
    """Sets a device block's peak fields from its attributes (sm_count, sm_clock_khz,
    compute_capability, memory_clock_khz, bus_width_bits). A peak whose inputs are unknown (0)
    is 0, and its source says so."""
    major, minor = (int(part) for part in device["compute_capability"].split("."))
    bandwidth = theoretical_bandwidth(device["memory_clock_khz"], device["bus_width_bits"])
    device["peak_bandwidth_gbps"] = bandwidth / 1e9
    device["peak_bandwidth_source"] = ("device attributes" if bandwidth > 0 else
                                       "unknown: the memory clock or bus width is not available")
    clock_hz = device["sm_clock_khz"] * 1e3
    fp32 = 2.0 * fp32_lanes_per_sm(major, minor) * device["sm_count"] * clock_hz
    device["peak_fp32_tflops"] = fp32 / 1e12
    device["peak_tf32_tensor_tflops"] = (device["sm_count"] * clock_hz *
                                         tensor_flops_per_clock_per_sm(major, minor, "tf32_tensor") / 1e12)
    device["peak_fp16_tensor_tflops"] = (device["sm_count"] * clock_hz *
                                         tensor_flops_per_clock_per_sm(major, minor, "fp16_tensor") / 1e12)
    device["peak_flops_source"] = "device attributes" if fp32 > 0 else "unknown"
    return device


def peak_flops(device, math):
    """FLOP/s of the unit `math` names ("fp32", "tf32_tensor", "fp16_tensor"); 0 when unknown."""
    key = {"tf32_tensor": "peak_tf32_tensor_tflops", "fp16_tensor": "peak_fp16_tensor_tflops"}.get(math,
                                                                                                "peak_fp32_tflops")
    return device[key] * 1e12


# ---- rows and derived figures, as harness/results/metrics.cpp -------------------------------------------

def empty_derived():
    """The `derived` block of a row that was not timed."""
    return {"bandwidth_gbps": 0.0, "tflops": 0.0, "bandwidth_efficiency": 0.0, "compute_efficiency": 0.0,
            "bound": "", "efficiency": 0.0, "roof_fraction": None, "baseline_ms": None, "speed_ratio": None,
            "launch_overhead_ms": None, "headline_mode": "", "band": ""}


def empty_verification():
    """The `verification` block of a row that was not verified."""
    return {"mismatches": 0, "max_abs_error": 0.0, "rel_l2_error": 0.0}


def new_row(op, variant, role, kernels_per_call, dtype, size_class, shape, elements, traffic, source=None):
    """A row as planned: status skipped ("not run") until it is verified and timed. `source` names
    where a variant from outside kbench was declared ("my_kernels.py:softmax"); None leaves it out."""
    row = {"op": op, "variant": variant}
    if source is not None:
        row["source"] = source
    row.update({"role": role, "kernels_per_call": kernels_per_call, "dtype": dtype, "size_class": size_class,
                "shape": list(shape), "elements": elements, "traffic": dict(traffic), "status": "skipped",
                "message": "not run", "verification": empty_verification(), "timings": [],
                "derived": empty_derived()})
    return row


def headline(row):
    """The headline timing: cold when measured, else the first; None when not timed."""
    timings = row["timings"]
    return next((t for t in timings if t["mode"] == "cold"), timings[0] if timings else None)


def headline_ms(row):
    """The headline median in ms, or 0 when the row has no usable timing."""
    timing = headline(row)
    return timing["stats"]["median_ms"] if row["status"] == "passed" and timing and timing["stats"]["count"] else 0.0


def _timing(row, mode):
    return next((t for t in row["timings"] if t["mode"] == mode), None)


def derive_row(row, device, thresholds):
    """Bandwidth, FLOP/s, efficiencies, bound, band and launch overhead of one row, in place."""
    row["derived"] = derived = empty_derived()
    median_ms = headline_ms(row)
    if median_ms <= 0:
        return
    derived["headline_mode"] = headline(row)["mode"]
    hot, eager = _timing(row, "hot"), _timing(row, "eager")
    if hot and eager and hot["stats"]["count"] and eager["stats"]["count"]:
        derived["launch_overhead_ms"] = eager["stats"]["median_ms"] - hot["stats"]["median_ms"]
    seconds = median_ms * 1e-3
    traffic = row["traffic"]
    total_bytes = traffic["bytes_read"] + traffic["bytes_written"]
    bytes_per_s, flops_per_s = total_bytes / seconds, traffic["flops"] / seconds
    peak_bandwidth = device["peak_bandwidth_gbps"] * 1e9
    peak = peak_flops(device, traffic["math"])
    derived["bandwidth_gbps"] = bytes_per_s / 1e9
    derived["tflops"] = flops_per_s / 1e12
    derived["bandwidth_efficiency"] = bytes_per_s / peak_bandwidth if peak_bandwidth > 0 else 0.0
    derived["compute_efficiency"] = flops_per_s / peak if peak > 0 else 0.0
    # Roofline: the case cannot beat the larger of its two floors, so efficiency is against that one.
    memory_floor_s = total_bytes / peak_bandwidth if peak_bandwidth > 0 else 0.0
    compute_floor_s = traffic["flops"] / peak if peak > 0 else 0.0
    derived["bound"] = "compute" if compute_floor_s > memory_floor_s else "memory"
    derived["efficiency"] = max(memory_floor_s, compute_floor_s) / seconds
    derived["band"] = bands.band(thresholds, row["op"], row["size_class"], derived["efficiency"])


def derive_relative(rows):
    """Speed ratios against the first timed baseline row and fractions of the first timed roof
    row; `rows` are the rows of one op x shape x dtype."""
    timed = [row for row in rows if headline_ms(row) > 0]
    baseline = next((row for row in timed if row["role"] == "baseline"), None)
    roof = next((row for row in timed if row["role"] == "roof"), None)
    for row in timed:
        base = _timing(baseline, headline(row)["mode"]) if baseline else None
        if base and base["stats"]["median_ms"] > 0:
            row["derived"]["baseline_ms"] = base["stats"]["median_ms"]
            row["derived"]["speed_ratio"] = base["stats"]["median_ms"] / headline_ms(row)
        if roof and roof["derived"]["bandwidth_gbps"] > 0:
            row["derived"]["roof_fraction"] = row["derived"]["bandwidth_gbps"] / roof["derived"]["bandwidth_gbps"]


def derive_metrics(cases, device, thresholds):
    """Every derived figure of every row, grouping rows by op, shape and dtype."""
    groups = {}
    for row in cases:
        derive_row(row, device, thresholds)
        groups.setdefault((row["op"], tuple(row["shape"]), row["dtype"]), []).append(row)
    for rows in groups.values():
        derive_relative(rows)


# ---- documents ----------------------------------------------------------------------------------

def make_document(build, command_line, utc_time, host, seed, run_state, device, settings, cases, thresholds):
    """A whole results document, its rows' derived figures computed (in place) first."""
    derive_metrics(cases, device, thresholds)
    return {"schema_version": SCHEMA_VERSION, "kbench": build, "command_line": command_line, "utc_time": utc_time,
            "host": host, "seed": seed, "run_state": run_state, "device": device, "settings": settings,
            "cases": cases}


def dumps_number_arrays_inline(value, depth=0):
    """`value` as kbench lays out its JSON files: two-space indents, except that a non-empty array
    of numbers stays on one line (per-sample times are most of a results file's bytes)."""
    def is_number(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    if isinstance(value, list) and value and all(is_number(x) for x in value):
        return "[" + ", ".join(json.dumps(x) for x in value) + "]"
    if isinstance(value, (list, dict)) and value:
        inner = "  " * (depth + 1)
        if isinstance(value, dict):
            items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps_number_arrays_inline(v, depth + 1)}"
                     for k, v in value.items()]
        else:
            items = [inner + dumps_number_arrays_inline(v, depth + 1) for v in value]
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        return opening + "\n" + ",\n".join(items) + "\n" + "  " * depth + closing
    return json.dumps(value, ensure_ascii=False)


def write_results(document, path):
    """Writes `document` to PATH.tmp, then renames it over `path`: a reader never sees half a file."""
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(dumps_number_arrays_inline(document))
        f.write("\n")
    os.replace(temporary, path)


def _field(node, key, kind, place, path):
    """node[key], checked to be of `kind` (int, str, list, dict or (int, float)); ResultsError
    naming the file and the field otherwise."""
    if not isinstance(node, dict) or key not in node:
        raise ResultsError(f"{path}: missing field {place}.{key}")
    value = node[key]
    if isinstance(value, bool) or not isinstance(value, kind):  # JSON true is no number here
        raise ResultsError(f"{path}: {place}.{key} is {describe(value)}; expected {_KIND_NAMES.get(kind, 'another type')}")
    return value


_KIND_NAMES = {int: "an integer", str: "a string", list: "an array", dict: "an object", (int, float): "a number"}


def describe(value):
    """A JSON type name for messages: "a string", "null", "an array", ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {str: "a string", int: "an integer", float: "a number", list: "an array", dict: "an object"}.get(
        type(value), type(value).__name__)


def read_results(path):
    """A results document, checked for what readers of this package use: schema_version 1, the
    device block's peaks, and each case's identity, status, traffic, timings and derived
    figures. Raises ResultsError naming the file and the field."""
    document = read_json(path, ResultsError)
    if not isinstance(document, dict):
        raise ResultsError(f"{path}: $ is {describe(document)}; expected an object (a kbench results document)")
    version = _field(document, "schema_version", int, "$", path)
    if version != SCHEMA_VERSION:
        raise ResultsError(f"{path}: $.schema_version is {version}; this script reads version {SCHEMA_VERSION}")
    device = _field(document, "device", dict, "$", path)
    _field(device, "name", str, "$.device", path)
    for key in ("peak_bandwidth_gbps", "peak_fp32_tflops", "peak_tf32_tensor_tflops", "peak_fp16_tensor_tflops"):
        _field(device, key, (int, float), "$.device", path)
    for i, row in enumerate(_field(document, "cases", list, "$", path)):
        place = f"$.cases[{i}]"
        for key in ("op", "variant", "role", "dtype", "status"):
            _field(row, key, str, place, path)
        if row["status"] not in STATUSES:
            raise ResultsError(f"{path}: {place}.status is '{row['status']}'; expected {', '.join(STATUSES)}")
        _field(row, "shape", list, place, path)
        _field(row, "elements", int, place, path)
        traffic = _field(row, "traffic", dict, place, path)
        for key in ("bytes_read", "bytes_written", "flops"):
            _field(traffic, key, (int, float), f"{place}.traffic", path)
        _field(traffic, "math", str, f"{place}.traffic", path)
        for j, timing in enumerate(_field(row, "timings", list, place, path)):
            _field(timing, "mode", str, f"{place}.timings[{j}]", path)
            stats = _field(timing, "stats", dict, f"{place}.timings[{j}]", path)
            _field(stats, "count", int, f"{place}.timings[{j}].stats", path)
            _field(stats, "median_ms", (int, float), f"{place}.timings[{j}].stats", path)
        derived = _field(row, "derived", dict, place, path)
        for key in ("efficiency", "tflops", "bandwidth_gbps"):
            _field(derived, key, (int, float), f"{place}.derived", path)
    return document
