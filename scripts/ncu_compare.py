#!/usr/bin/env python3
"""Compares kbench's hardware counters with Nsight Compute's for the cases scripts/ncu_compare.sh ran.

usage: ncu_compare.py OUT_DIR   (reads OUT_DIR/TAG.json and OUT_DIR/ncu-TAG.csv; prints Markdown)

Kernels are matched in launch order (kbench's counters list one call's launches in order; ncu's
CSV lists the launches inside the row's "profile" range). A metric agrees when the two values are
within 5 % of each other, or both are below 1e-6 of the larger magnitude (zeros).
"""
import csv
import json
import pathlib
import sys

TOLERANCE = 0.05


def ncu_kernels(path):
    """[(kernel name, {metric: value})] in launch order, from ncu's --csv output."""
    lines = [line for line in path.read_text(errors="replace").splitlines() if line.startswith('"')]
    kernels, index = [], {}
    for row in csv.DictReader(lines):
        launch = row.get("ID")
        if launch not in index:
            index[launch] = len(kernels)
            kernels.append((row.get("Kernel Name", "?"), {}))
        text = row.get("Metric Value", "").replace(",", "")
        try:
            kernels[index[launch]][1][row["Metric Name"]] = float(text)
        except ValueError:
            pass
    return kernels


def agree(mine, theirs):
    scale = max(abs(mine), abs(theirs))
    return scale == 0 or abs(mine - theirs) <= TOLERANCE * scale or scale < 1e-6


def main(out_dir):
    out = pathlib.Path(out_dir)
    lines = ["# kbench --counters against Nsight Compute", "",
             f"Each metric of each kernel: kbench's value (CUPTI range profiler, one call after an L2 flush), "
             f"ncu's (`--cache-control all --clock-control none`, the same call under `kbench --profile`), and "
             f"whether they agree within {TOLERANCE:.0%}.", "",
             "| case | kernel | metric | kbench | ncu | difference | within 5 % |", "|---|---|---|---|---|---|---|"]
    totals = {"agree": 0, "differ": 0}
    for results in sorted(out.glob("*.json")):
        tag = results.stem
        document = json.loads(results.read_text())
        mine = [k for row in document["cases"] for k in (row.get("hardware_counters") or {}).get("kernels", [])]
        csv_path = out / f"ncu-{tag}.csv"
        theirs = ncu_kernels(csv_path) if csv_path.exists() else []
        if not mine or not theirs:
            lines.append(f"| {tag} | - | - | {len(mine)} kernels | {len(theirs)} kernels | - | not compared |")
            continue
        if len(mine) != len(theirs):
            lines.append(f"| {tag} | - | kernel count | {len(mine)} | {len(theirs)} | - | no |")
        for i, (kernel, (ncu_name, ncu_metrics)) in enumerate(zip(mine, theirs)):
            for metric, value in kernel["metrics"].items():
                if metric not in ncu_metrics:
                    lines.append(f"| {tag} | {i}: {kernel['name'][:40]} | `{metric}` | {value:.6g} | (missing) | - | - |")
                    continue
                other = ncu_metrics[metric]
                ok = agree(value, other)
                totals["agree" if ok else "differ"] += 1
                difference = f"{(value - other) / other:+.1%}" if other else "-"
                lines.append(f"| {tag} | {i}: {kernel['name'][:40]} | `{metric}` | {value:.6g} | {other:.6g} | "
                             f"{difference} | {'yes' if ok else '**no**'} |")
    lines += ["", f"{totals['agree']} values agree within 5 %, {totals['differ']} do not."]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]) if len(sys.argv) == 2 else "usage: ncu_compare.py OUT_DIR")
