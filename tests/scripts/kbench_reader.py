"""What kbench's results reader (harness/results/results_json.cpp, results_from_json) demands of a
results document, in Python: every field it reads, of the JSON type it accepts. A document
that passes here reads in `kbench report`, `gate` and `compare`.

check(document) returns the first problem as "$.path: what is wrong", or "" when there is none.
"""
SETTINGS_TYPES = {"modes": str, "warmup_calls": int, "warmup_time_s": float, "min_samples": int, "max_samples": int,
                  "min_time_s": float, "max_noise": float, "timeout_s": float, "flush_l2": int, "clock_floor": float,
                  "keep_samples": int}


class Problem(Exception):
    pass


def _get(node, key, place):
    if not isinstance(node, dict):
        raise Problem(f"{place}: not an object")
    if key not in node:
        raise Problem(f"missing field {place}.{key}")
    return node[key]


def _string(node, key, place):
    value = _get(node, key, place)
    if not isinstance(value, str):
        raise Problem(f"{place}.{key}: expected a string, found {value!r}")
    return value


def _integer(node, key, place):
    value = _get(node, key, place)
    if isinstance(value, bool) or not isinstance(value, int):  # nlohmann: is_number_integer
        raise Problem(f"{place}.{key}: expected an integer, found {value!r}")
    return value


def _boolean(node, key, place):
    if not isinstance(_get(node, key, place), bool):
        raise Problem(f"{place}.{key}: expected true or false")


def _number(node, key, place, non_negative=False, nullable=False):
    value = _get(node, key, place)
    if value is None and nullable:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Problem(f"{place}.{key}: expected a number, found {value!r}")
    if non_negative and not (value >= 0 and value != float("inf")):
        raise Problem(f"{place}.{key}: expected a finite number >= 0, found {value!r}")


def _array(node, key, place):
    value = _get(node, key, place)
    if not isinstance(value, list):
        raise Problem(f"{place}.{key}: expected an array")
    return value


def _check_timing(t, place):
    if _string(t, "mode", place) not in ("cold", "hot", "eager"):
        raise Problem(f"{place}.mode: expected cold, hot or eager")
    for key in ("warmup_calls", "calls_per_sample", "low_clock_samples"):
        _integer(t, key, place)
    for key in ("timed_out", "l2_resident"):
        _boolean(t, key, place)
    _string(t, "stop_reason", place)
    for key in ("sm_clock_mhz", "min_sm_clock_mhz"):
        _number(t, key, place, non_negative=True)
    if not all(isinstance(w, str) for w in _array(t, "warnings", place)):
        raise Problem(f"{place}.warnings: expected strings")
    stats = _get(t, "stats", place)
    _integer(stats, "count", place + ".stats")
    for key in ("median_ms", "min_ms", "max_ms", "mean_ms", "stddev_ms", "q1_ms", "q3_ms"):
        _number(stats, key, place + ".stats", non_negative=True)
    for sample in _array(t, "samples_ms", place):
        if isinstance(sample, bool) or not isinstance(sample, (int, float)) or sample < 0:
            raise Problem(f"{place}.samples_ms: expected numbers >= 0")


def _check_case(c, place):
    for key in ("op", "variant", "role", "dtype", "size_class", "message"):
        _string(c, key, place)
    _integer(c, "kernels_per_call", place)
    for extent in _array(c, "shape", place):
        if isinstance(extent, bool) or not isinstance(extent, int) or extent <= 0:
            raise Problem(f"{place}.shape: expected positive integers")
    _integer(c, "elements", place)
    traffic = _get(c, "traffic", place)
    for key in ("bytes_read", "bytes_written", "flops"):
        _number(traffic, key, place + ".traffic", non_negative=True)
    _string(traffic, "math", place + ".traffic")
    if _string(c, "status", place) not in ("passed", "incorrect", "error", "skipped"):
        raise Problem(f"{place}.status: expected passed, incorrect, error or skipped")
    verification = _get(c, "verification", place)
    _integer(verification, "mismatches", place + ".verification")
    _number(verification, "max_abs_error", place + ".verification")
    _number(verification, "rel_l2_error", place + ".verification")
    for j, timing in enumerate(_array(c, "timings", place)):
        _check_timing(timing, f"{place}.timings[{j}]")
    derived = _get(c, "derived", place)
    for key in ("bandwidth_gbps", "tflops", "bandwidth_efficiency", "compute_efficiency", "efficiency"):
        _number(derived, key, place + ".derived", non_negative=True)
    for key in ("roof_fraction", "baseline_ms", "speed_ratio", "launch_overhead_ms"):
        _number(derived, key, place + ".derived", nullable=True)
    for key in ("bound", "headline_mode", "band"):
        _string(derived, key, place + ".derived")


def check(document):
    try:
        if _integer(document, "schema_version", "$") != 1:
            raise Problem("$.schema_version: expected 1")
        build = _get(document, "kbench", "$")
        for key in ("version", "git_commit", "git_dirty", "build_type", "cuda_architectures", "cxx_compiler",
                    "cuda_compiler"):
            _string(build, key, "$.kbench")
        _boolean(build, "optimized", "$.kbench")
        _boolean(build, "device_debug", "$.kbench")
        for key in ("command_line", "utc_time", "host"):
            _string(document, key, "$")
        if _integer(document, "seed", "$") < 0:
            raise Problem("$.seed: expected an unsigned integer")
        if _string(document, "run_state", "$") not in ("complete", "in_progress", "interrupted", "context_lost"):
            raise Problem("$.run_state: unknown state")
        device = _get(document, "device", "$")
        for key in ("index", "sm_count", "l2_bytes", "global_memory_bytes", "sm_clock_khz", "memory_clock_khz",
                    "bus_width_bits", "driver_version", "runtime_version"):
            _integer(device, key, "$.device")
        for key in ("name", "pci_bus_id", "peak_bandwidth_source", "peak_flops_source"):
            _string(device, key, "$.device")
        major, _, minor = _string(device, "compute_capability", "$.device").partition(".")
        if not (major.isdigit() and minor.isdigit()):
            raise Problem("$.device.compute_capability: expected MAJOR.MINOR")
        _boolean(device, "ecc_enabled", "$.device")
        for key in ("peak_bandwidth_gbps", "peak_fp32_tflops", "peak_tf32_tensor_tflops", "peak_fp16_tensor_tflops"):
            _number(device, key, "$.device", non_negative=True)
        settings = _get(document, "settings", "$")
        for key, kind in SETTINGS_TYPES.items():
            if kind is str:
                _string(settings, key, "$.settings")
            elif kind is int:
                _integer(settings, key, "$.settings")
            else:
                _number(settings, key, "$.settings")
        for i, case in enumerate(_array(document, "cases", "$")):
            _check_case(case, f"$.cases[{i}]")
    except Problem as problem:
        return str(problem)
    return ""
