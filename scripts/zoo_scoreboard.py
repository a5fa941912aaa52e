#!/usr/bin/env python3
"""The shape zoo's scoreboard (issue 22's targets) from results files, as a Markdown table.

For each case (op, dtype, shape) of RUN it takes the own variant named by --variant (default
`auto`; a case without a passed one is listed and counted as not judged), the faster of the
vendor baselines in RUN and the baseline rows of the --against files (kbenchpy's torch_eager and
torch_compile), and kbench's roof fraction (the copy roof's time over the own row's), at each
row's headline (cold) median. Then:

  memory-bound cases of at least 4M elements (--min-elements; a GEMM's are those of A, B and C):
      own >= 0.9x the faster (--min-ratio) and >= 80 % of the copy roof (--min-roof)
  GEMMs (op matmul) of at least 1 GFLOP (--min-gflop): own >= 0.7x the faster (--min-gemm-ratio)

"x the faster" is the faster's time over the own variant's (above 1: the own one is faster);
"% of roof" is the roof's time over the own variant's. Other cases are listed, not judged.

  zoo_scoreboard.py RUN [--against FILE ...] [--variant NAME] [--misses-only]

RUN and FILE are results documents (results/SCHEMA.md), plain or gzipped (.gz), read by
kbenchpy's results reader; only the --against files' baseline rows count. A target that cannot
be evaluated (no baseline of the case, no roof row) counts as missed. Exit codes: 0 the table was
written (whatever it says), 2 an unreadable or unusable file.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
from kbenchpy import results  # noqa: E402  (this checkout's python/kbenchpy, installed or not)


def tensor_elements(row):
    """Elements of the case's tensors: a results row's `elements`, except for matmul, whose
    `elements` is M·N·K, where it is those of A, B and C (M·K + K·N + M·N)."""
    shape = row["shape"]
    if row["op"] == "matmul" and len(shape) == 3:
        m, n, k = shape
        return m * k + k * n + m * n
    return row["elements"]


class Case:
    def __init__(self, key):
        self.key = key  # (op, dtype, shape)
        self.own_ms = None  # the judged variant's headline median; None: no passed row
        self.roof_fraction = None  # the copy roof's time over the own variant's (kbench's derived figure)
        self.vendor = {}  # variant -> ms: RUN's baselines
        self.against = {}  # variant -> ms: the --against files' baselines
        self.bound = self.size_class = None
        self.elements = 0
        self.flops = 0.0

    def faster(self):
        """(name, ms) of the fastest baseline of either kind, or None."""
        rows = list(self.vendor.items()) + list(self.against.items())
        return min(rows, key=lambda item: item[1]) if rows else None


def case_key(row):
    return row["op"], row["dtype"], tuple(row["shape"])


def collect(run_path, against_paths, variant):
    """The cases of RUN with their own row, vendor baselines and roof, and the baseline rows of
    each --against file on the same cases. Raises results.ResultsError on an unusable file."""
    cases = {}
    for row in results.read_results(run_path)["cases"]:
        case = cases.setdefault(case_key(row), Case(case_key(row)))
        ms = results.headline_ms(row) or None
        if row["role"] == "own" and row["variant"] == variant:
            case.own_ms = ms
            case.roof_fraction = row["derived"].get("roof_fraction") if ms else None
            case.bound = row["derived"].get("bound")
            case.size_class = row.get("size_class")
            case.elements = tensor_elements(row)
            case.flops = row["traffic"]["flops"]
        elif row["role"] == "baseline" and ms:
            case.vendor[row["variant"]] = ms
    for path in against_paths:
        for row in results.read_results(path)["cases"]:
            ms = results.headline_ms(row)
            if row["role"] == "baseline" and ms and case_key(row) in cases:
                cases[case_key(row)].against[row["variant"]] = ms
    return list(cases.values())


def below(value, target):
    """value < target, past the rounding of the times' quotient (a ratio of exactly 0.9 meets 0.9)."""
    return value < target - 1e-9


def judge(case, args):
    """(class, {target: met}) of a case: class "memory", "gemm", "not timed", or None (no target).
    A target that cannot be evaluated (no baseline, no roof row) is not met."""
    if case.own_ms is None:
        return "not timed", {f"a passed `{args.variant}` row": False}
    faster = case.faster()
    ratio = faster[1] / case.own_ms if faster else None

    def at_least(value, target, name, missing):
        return {name if value is not None else f"{name} ({missing})": value is not None and not below(value, target)}

    if case.key[0] == "matmul" and case.flops >= args.min_gflop * 1e9:
        return "gemm", at_least(ratio, args.min_gemm_ratio, f">= {args.min_gemm_ratio}x", "no baseline")
    if case.bound == "memory" and case.elements >= args.min_elements:
        roof = f">= {100 * args.min_roof:.0f} % of roof"
        return "memory", {**at_least(ratio, args.min_ratio, f">= {args.min_ratio}x", "no baseline"),
                          **at_least(case.roof_fraction, args.min_roof, roof, "no roof row")}
    return None, {}


def microseconds(ms):
    return "" if ms is None else f"{1000 * ms:.1f}"


def table(cases, args):
    lines = [f"| case | class | {args.variant} µs | vendor µs | against µs | {args.variant} vs faster | % of roof | missed |",
             "|---|---|---|---|---|---|---|---|"]
    judged = {"memory": [], "gemm": []}  # per class: each judged case's {target: met}
    not_timed = 0
    for case in cases:
        kind, targets = judge(case, args)
        not_timed += kind == "not timed"
        judged.get(kind, []).append(targets)
        missed = [target for target, met in targets.items() if not met]
        if args.misses_only and not missed:
            continue
        own_ms = case.own_ms
        faster = case.faster()
        ratio = f"{faster[1] / own_ms:.3f} ({faster[0]})" if faster and own_ms else ""
        roof = f"{100 * case.roof_fraction:.1f} %" if case.roof_fraction is not None else ""
        vendor = ", ".join(f"{name} {microseconds(ms)}" for name, ms in sorted(case.vendor.items()))
        against = ", ".join(f"{name} {microseconds(ms)}" for name, ms in sorted(case.against.items()))
        op, dtype, shape = case.key
        name = f"{op} {dtype} {'x'.join(str(extent) for extent in shape)}"
        lines.append(f"| {name} | {case.size_class or ''} | {microseconds(own_ms)} | {vendor} | {against} | {ratio} | "
                     f"{roof} | {', '.join(missed)} |")

    def counts(kind, what):
        rows = [list(r.values()) for r in judged[kind]]  # the same targets in the same order for a class
        names = [name.split(" (")[0] for name in (judged[kind][0] if rows else {})]
        each = "; ".join(f"{name}: {sum(r[i] for r in rows)}" for i, name in enumerate(names))
        return f"{what}: {len(rows)}" + (f"; {each}; all met: {sum(all(r) for r in rows)}" if rows else "")

    summary = [counts("memory", f"Memory-bound cases of at least {args.min_elements / 2**20:g}M elements"),
               counts("gemm", f"GEMMs of at least {args.min_gflop:g} GFLOP")]
    if not_timed:
        summary.append(f"Not judged: {not_timed} cases without a passed `{args.variant}` row (listed below).")
    return "\n".join(summary + [""] + lines)


def main(argv):
    parser = argparse.ArgumentParser(prog="zoo_scoreboard.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", metavar="RUN", help="kbench results document (.json or .json.gz)")
    parser.add_argument("--against", metavar="FILE", action="append", default=[],
                        help="results whose passed baseline rows count too (kbenchpy's torch rows); repeatable")
    parser.add_argument("--variant", default="auto", help="the own variant judged (default: auto)")
    parser.add_argument("--min-elements", type=int, default=4 << 20, help="memory-bound cases judged from (default 4M)")
    parser.add_argument("--min-ratio", type=float, default=0.9, help="memory-bound: x the faster (default 0.9)")
    parser.add_argument("--min-roof", type=float, default=0.8, help="memory-bound: fraction of the roof (default 0.8)")
    parser.add_argument("--min-gflop", type=float, default=1.0, help="GEMMs judged from (default 1 GFLOP)")
    parser.add_argument("--min-gemm-ratio", type=float, default=0.7, help="GEMMs: x the faster (default 0.7)")
    parser.add_argument("--misses-only", action="store_true", help="list only the cases that miss a target")
    args = parser.parse_args(argv)
    try:
        cases = collect(args.run, args.against, args.variant)
    except results.ResultsError as error:
        print(f"zoo_scoreboard: error: {error}", file=sys.stderr)
        return 2
    try:
        print(table(cases, args))
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
