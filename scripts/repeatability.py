#!/usr/bin/env python3
"""Spread of each case's headline median across several kbench results files (same cases).

usage: repeatability.py RUN1.json RUN2.json ... [--classes large,xlarge]
Prints one line per case: the medians' min, max and spread (max - min) / median of medians.
Talks to kbench only through the results schema (results/SCHEMA.md).
"""
import json
import statistics
import sys


def headline_median(case):
    for timing in case["timings"]:
        if timing["mode"] == case["derived"]["headline_mode"]:
            return timing["stats"]["median_ms"]
    return None


def main(argv):
    classes = None
    paths = []
    args = iter(argv)
    for arg in args:
        if arg == "--classes":
            classes = set(next(args).split(","))
        else:
            paths.append(arg)
    if len(paths) < 2:
        sys.exit("repeatability.py: give at least two results files")
    medians = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for case in doc["cases"]:
            if case["status"] != "passed" or (classes and case["size_class"] not in classes):
                continue
            key = (case["op"], case["variant"], case["dtype"], "x".join(map(str, case["shape"])))
            medians.setdefault(key, []).append(headline_median(case))
    worst = 0.0
    print(f"{'case':<48} {'runs':>4} {'min ms':>10} {'max ms':>10} {'spread':>8}")
    for key, values in sorted(medians.items()):
        centre = statistics.median(values)
        spread = (max(values) - min(values)) / centre if centre > 0 else 0.0
        worst = max(worst, spread)
        print(f"{' '.join(key):<48} {len(values):>4} {min(values):>10.5f} {max(values):>10.5f} {100 * spread:>7.2f}%")
    print(f"worst spread: {100 * worst:.2f}% over {len(medians)} cases")


if __name__ == "__main__":
    main(sys.argv[1:])
