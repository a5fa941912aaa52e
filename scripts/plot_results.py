#!/usr/bin/env python3
"""Plots kbench results files (schema version 1, results/SCHEMA.md) as PNG and SVG.

usage: plot_results.py RESULTS.json [MORE.json ...] [--out DIR]

Writes into DIR (default plots/, created if missing), each figure as NAME.png and NAME.svg:

  efficiency_<op>   Efficiency against problem size, one figure per op: x is the case's elements
                    (the product of its shape's extents; for matmul M·N·K), log scale; y is the
                    headline efficiency (derived.efficiency: the larger of the byte floor and the
                    FLOP floor over the median time, in % of the device's peak). One panel per
                    dtype, one line per variant: own variants solid, the baseline (and any
                    --against style framework run, whose rows are baselines) dashed, the
                    d2d_copy roof dotted. Where several shapes share an element count (4096x4096
                    and 16x1024x1024), each shows as a marker and the line passes through their
                    mean.
  roofline[_<device>]
                    A roofline per device: x is arithmetic intensity (traffic.flops / (bytes_read +
                    bytes_written), FLOP per byte), y is achieved FLOP/s (derived.tflops), both
                    log scale. The memory roof is peak bandwidth x intensity; the compute
                    ceilings are the device block's peak_fp32_tflops, peak_tf32_tensor_tflops and
                    peak_fp16_tensor_tflops (those it knows), each with its ridge point marked
                    (the intensity where it meets the memory roof). Every timed row with FLOPs
                    is a point, coloured by op, shaped by dtype; d2d_copy roof rows are left
                    out (a copy does no arithmetic; older kbench files gave them the op's FLOPs).

With several files, variants are labelled "FILE: variant" (FILE without .json), so that a
kbench run and a PyTorch run (python3 -m kbenchpy torch), or two kbench runs, share the plots.

Only timed rows (status passed) are plotted; skipped, incorrect and error rows are counted and
printed. Exit codes: 0 plots written; 2 unusable input (a file missing, not JSON, of another
schema_version or missing a field the plots need: the message names the file and the field; or
no timed row in any file); 3 matplotlib is not installed (Debian: apt-get install
python3-matplotlib). matplotlib runs with its Agg backend: no display is needed.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
from kbenchpy import results  # noqa: E402  (this checkout's python/kbenchpy, installed or not)

EXIT_OK, EXIT_INPUT, EXIT_NO_MATPLOTLIB = 0, 2, 3

ROLE_STYLES = {"own": "-", "baseline": "--", "roof": ":"}
DTYPE_MARKERS = {"fp32": "o", "tf32": "D", "fp16": "s", "bf16": "^"}
DTYPE_ORDER = ("fp32", "tf32", "fp16", "bf16")
CEILINGS = (("peak_fp32_tflops", "FP32"), ("peak_tf32_tensor_tflops", "TF32 tensor"),
            ("peak_fp16_tensor_tflops", "FP16/BF16 tensor"))


class InputError(Exception):
    """Unusable input: exit code 2."""


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="plot_results.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Plot kbench results files (schema 1): efficiency against problem size per op, and a "
                    "roofline per device, as PNG and SVG.",
        epilog="What each figure shows is in this script's docstring.")
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="kbench results files (schema 1)")
    parser.add_argument("--out", default="plots", metavar="DIR", help="folder for the figures (default: plots)")
    return parser.parse_args(argv)


def load_rows(paths):
    """(timed rows, per-file devices, counts of untimed rows by status). Each timed row is the
    results row plus `_label` (its line's name) and `_device` (its file's device block)."""
    timed, devices, untimed = [], [], defaultdict(int)
    several = len(paths) > 1
    for path in paths:
        try:
            document = results.read_results(path)
        except results.ResultsError as error:
            raise InputError(str(error)) from None
        devices.append((path, document["device"]))
        stem = os.path.splitext(os.path.basename(path))[0]
        for row in document["cases"]:
            if row["status"] != "passed" or results.headline_ms(row) <= 0:
                untimed[row["status"] if row["status"] != "passed" else "passed without timings"] += 1
                continue
            label = f"{stem}: {row['variant']}" if several else row["variant"]
            timed.append(dict(row, _label=label, _device=document["device"]))
    if not timed:
        counts = ", ".join(f"{n} {status}" for status, n in sorted(untimed.items())) or "no rows"
        raise InputError(f"no timed row (status passed) in {', '.join(paths)}: {counts}")
    return timed, devices, untimed


def slug(text):
    """A file-name-safe form of `text`."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "device"


def save(figure, folder, name, written):
    """Writes `figure` as NAME.png and NAME.svg (the SVG without a date, so reruns are identical)."""
    for extension, metadata in (("png", None), ("svg", {"Date": None})):
        path = os.path.join(folder, f"{name}.{extension}")
        figure.savefig(path, dpi=120, bbox_inches="tight", metadata=metadata)
        written.append(path)


def plot_efficiency(plt, rows, folder, written):
    """One figure per op: efficiency (%) against elements, a panel per dtype, a line per variant."""
    by_op = defaultdict(list)
    for row in rows:
        by_op[row["op"]].append(row)
    for op, op_rows in by_op.items():
        dtypes = [d for d in DTYPE_ORDER if any(r["dtype"] == d for r in op_rows)]
        dtypes += sorted({r["dtype"] for r in op_rows} - set(dtypes))
        figure, axes = plt.subplots(1, len(dtypes), figsize=(5.2 * len(dtypes), 4.2), sharey=True, squeeze=False)
        palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        labels = sorted({row["_label"] for row in op_rows})
        colour = {label: palette[i % len(palette)] for i, label in enumerate(labels)}  # the same in every panel
        for axis, dtype in zip(axes[0], dtypes):
            lines = defaultdict(list)  # (label, role) -> [(elements, efficiency %)]
            for row in op_rows:
                if row["dtype"] == dtype:
                    lines[(row["_label"], row["role"])].append((row["elements"], 100 * row["derived"]["efficiency"]))
            for (label, role), points in sorted(lines.items()):
                by_x = defaultdict(list)
                for x, y in points:
                    by_x[x].append(y)
                xs = sorted(by_x)
                axis.plot(xs, [sum(by_x[x]) / len(by_x[x]) for x in xs], ROLE_STYLES.get(role, "-."),
                          color=colour[label], label=f"{label} ({role})" if role != "own" else label)
                axis.plot([x for x, _ in points], [y for _, y in points], DTYPE_MARKERS.get(dtype, "o"),
                          color=colour[label], markersize=4)
            axis.set_xscale("log")
            axis.set_title(f"{op} {dtype}")
            axis.set_xlabel("problem size (elements)")
            axis.grid(True, which="both", alpha=0.3)
            axis.legend(fontsize="small")
        axes[0][0].set_ylabel("efficiency (% of peak; headline median)")
        axes[0][0].set_ylim(bottom=0)
        figure.suptitle(f"{op}: efficiency against problem size")
        save(figure, folder, f"efficiency_{slug(op)}", written)
        plt.close(figure)


def plot_roofline(plt, rows, device, folder, name, written):
    """The roofline of one device with every timed row that has FLOPs placed on it."""
    points = []
    for row in rows:
        traffic = row["traffic"]
        total = traffic["bytes_read"] + traffic["bytes_written"]
        if row["role"] != "roof" and traffic["flops"] > 0 and total > 0 and row["derived"]["tflops"] > 0:
            points.append((traffic["flops"] / total, row["derived"]["tflops"], row))
    if not points:
        return 0
    figure, axis = plt.subplots(figsize=(8, 5.5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    ops = sorted({row["op"] for _, _, row in points})
    for i, op in enumerate(ops):
        for dtype in sorted({row["dtype"] for _, _, row in points if row["op"] == op}):
            chosen = [(x, y) for x, y, row in points if row["op"] == op and row["dtype"] == dtype]
            axis.scatter([x for x, _ in chosen], [y for _, y in chosen], color=colours[i % len(colours)],
                         marker=DTYPE_MARKERS.get(dtype, "o"), s=22, label=f"{op} {dtype}", zorder=3)

    intensities = [x for x, _, _ in points]
    low, high = min(intensities) / 4, max(intensities) * 4
    bandwidth_tb = device["peak_bandwidth_gbps"] / 1e3  # TB/s x FLOP/byte = TFLOP/s
    ceilings = [(device[key], label) for key, label in CEILINGS if device[key] > 0]
    if bandwidth_tb > 0:
        # The slope runs up to the highest ridge point; each ceiling runs right from its own.
        end = max((peak / bandwidth_tb for peak, _ in ceilings), default=high)
        high = max(high, 4 * end)
        axis.plot([low, end], [bandwidth_tb * low, bandwidth_tb * end], "k-", linewidth=1.2,
                  label=f"memory roof {device['peak_bandwidth_gbps']:.0f} GB/s")
    for peak, label in ceilings:
        ridge = peak / bandwidth_tb if bandwidth_tb > 0 else low
        axis.plot([ridge, high], [peak, peak], "k--", linewidth=1)
        axis.annotate(f"{label} {peak:.0f} TFLOP/s", (high, peak), xytext=(-4, 3), textcoords="offset points",
                      ha="right", fontsize="small")
        if bandwidth_tb > 0:
            axis.plot([ridge], [peak], "kx", markersize=8)
            axis.annotate(f"ridge {ridge:.0f} FLOP/B", (ridge, peak), xytext=(4, -12), textcoords="offset points",
                          fontsize="x-small")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlim(low, high)
    axis.set_xlabel("arithmetic intensity (FLOP / byte of minimum traffic)")
    axis.set_ylabel("achieved TFLOP/s (headline median)")
    note = "" if bandwidth_tb > 0 else " (peak bandwidth unknown: no memory roof)"
    axis.set_title(f"roofline: {device['name']}{note}")
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(fontsize="x-small", ncol=2, loc="lower right")
    save(figure, folder, name, written)
    plt.close(figure)
    return len(points)


def import_pyplot():
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "kbench"  # stable SVG ids across runs
    import matplotlib.pyplot as plt
    return plt


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        rows, devices, untimed = load_rows(args.results)
    except InputError as error:
        print(f"plot_results.py: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    plt = import_pyplot()
    if plt is None:
        print(f"plot_results.py: error: matplotlib is not installed for {sys.executable} "
              "(Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    os.makedirs(args.out, exist_ok=True)
    written = []
    plot_efficiency(plt, rows, args.out, written)
    by_device = {}
    for _, device in devices:
        by_device.setdefault(device["name"], device)
    placed = 0
    for name, device in by_device.items():
        figure_name = "roofline" if len(by_device) == 1 else f"roofline_{slug(name)}"
        placed += plot_roofline(plt, [r for r in rows if r["_device"]["name"] == name], device, args.out,
                                figure_name, written)
    print(f"plotted {len(rows)} timed rows from {len(args.results)} file(s); {placed} placed on the roofline "
          f"(rows without FLOPs have no intensity)")
    if untimed:
        print("not plotted: " + ", ".join(f"{n} {status}" for status, n in sorted(untimed.items())))
    for path in written:
        print(f"wrote {path}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
