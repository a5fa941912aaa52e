#!/usr/bin/env python3
"""The shape zoo's scoreboard (issue 22's targets) from results files, as a Markdown table.

For each case (op, dtype, shape) of RUN it takes the own variant named by --variant (default
`auto`; a case without one is listed as missing), the faster of the vendor baselines in RUN and
every passed row of the --against files (kbenchpy's torch_eager and torch_compile rows), and the
copy roof, all at each row's headline mode (median). Then:

  memory-bound cases of at least 4M elements (--min-elements; a GEMM's are those of A, B and C):
      own >= 0.9x the faster (--min-ratio) and >= 80 % of the copy roof (--min-roof)
  GEMMs (op matmul) of at least 1 GFLOP (--min-gflop): own >= 0.7x the faster (--min-gemm-ratio)

"x the faster" is the faster's time over the own variant's (above 1: the own one is faster);
"% of roof" is the roof's time over the own variant's. Other cases are listed, not judged.

  zoo_scoreboard.py RUN [--against FILE ...] [--variant NAME] [--misses-only]

RUN and FILE are results documents (results/SCHEMA.md), plain or gzipped (.gz). Exit codes: 0
the table was written (whatever it says), 2 an unreadable or unusable file.
"""
import argparse
import gzip
import json
import os
import sys


class InputError(Exception):
    pass


def load(path):
    """The results document at `path` (.gz read as gzip)."""
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            document = json.load(f)
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    except (ValueError, EOFError) as error:
        raise InputError(f"{path}: not a valid JSON document: {error}") from None
    cases = document.get("cases") if isinstance(document, dict) else None
    if not isinstance(cases, list):
        raise InputError(f"{path}: $.cases: expected an array of rows (a kbench results document)")
    return cases


def headline_ms(row):
    """The row's median at its headline mode, or None when it has none (not passed, not timed)."""
    if row.get("status") != "passed":
        return None
    mode = (row.get("derived") or {}).get("headline_mode")
    for timing in row.get("timings") or []:
        if timing.get("mode") == mode:
            median = (timing.get("stats") or {}).get("median_ms")
            return median if isinstance(median, (int, float)) and median > 0 else None
    return None


def tensor_elements(row):
    """Elements of the case's tensors: a results row's `elements`, except for matmul, whose
    `elements` is M·N·K, where it is those of A, B and C (M·K + K·N + M·N)."""
    shape = row.get("shape") or []
    if row.get("op") == "matmul" and len(shape) == 3:
        m, n, k = shape
        return m * k + k * n + m * n
    return row.get("elements") or 0


def case_key(row, path, index):
    try:
        return row["op"], row["dtype"], tuple(row["shape"])
    except (KeyError, TypeError):
        raise InputError(f"{path}: $.cases[{index}]: expected op, dtype and shape") from None


class Case:
    def __init__(self, key):
        self.key = key
        self.own = self.roof = None  # (variant, ms)
        self.vendor = {}  # variant -> ms: RUN's baselines
        self.against = {}  # variant -> ms: the --against files' rows
        self.bound = self.size_class = None
        self.elements = 0
        self.flops = 0.0

    def faster(self):
        """(name, ms) of the fastest baseline of either kind, or None."""
        rows = list(self.vendor.items()) + list(self.against.items())
        return min(rows, key=lambda item: item[1]) if rows else None


def collect(run_path, against_paths, variant):
    cases = {}
    for index, row in enumerate(load(run_path)):
        key = case_key(row, run_path, index)
        case = cases.setdefault(key, Case(key))
        ms = headline_ms(row)
        if row.get("variant") == variant and row.get("role") == "own":
            case.own = (variant, ms)
            case.bound = (row.get("derived") or {}).get("bound")
            case.size_class = row.get("size_class")
            case.elements = tensor_elements(row)
            case.flops = (row.get("traffic") or {}).get("flops") or 0.0
        elif ms is None:
            continue
        elif row.get("role") == "roof":
            case.roof = (row.get("variant"), ms)
        elif row.get("role") == "baseline":
            case.vendor[row.get("variant")] = ms
    for path in against_paths:
        for index, row in enumerate(load(path)):
            key = case_key(row, path, index)
            ms = headline_ms(row)
            if key in cases and ms is not None:
                cases[key].against[row.get("variant")] = ms
    return list(cases.values())


def below(value, target):
    """value < target, past the rounding of the times' quotient (a ratio of exactly 0.9 meets 0.9)."""
    return value < target - 1e-9


def judge(case, args):
    """(class, {target: met}) of a case: class "memory", "gemm", "not timed", or None (no target)."""
    if case.own is None or case.own[1] is None:
        return "not timed", {f"a passed `{args.variant}` row": False}
    own_ms = case.own[1]
    faster = case.faster()
    ratio = faster[1] / own_ms if faster else None
    roof = case.roof[1] / own_ms if case.roof else None
    if case.key[0] == "matmul" and case.flops >= args.min_gflop * 1e9:
        return "gemm", {f">= {args.min_gemm_ratio}x": ratio is None or not below(ratio, args.min_gemm_ratio)}
    if case.bound == "memory" and case.elements >= args.min_elements:
        return "memory", {f">= {args.min_ratio}x": ratio is None or not below(ratio, args.min_ratio),
                          f">= {100 * args.min_roof:.0f} % of roof": roof is None or not below(roof, args.min_roof)}
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
        own_ms = case.own[1] if case.own else None
        faster = case.faster()
        ratio = f"{faster[1] / own_ms:.3f} ({faster[0]})" if faster and own_ms else ""
        roof = f"{100 * case.roof[1] / own_ms:.1f} %" if case.roof and own_ms else ""
        vendor = ", ".join(f"{name} {microseconds(ms)}" for name, ms in sorted(case.vendor.items()))
        against = ", ".join(f"{name} {microseconds(ms)}" for name, ms in sorted(case.against.items()))
        op, dtype, shape = case.key
        name = f"{op} {dtype} {'x'.join(str(extent) for extent in shape)}"
        lines.append(f"| {name} | {case.size_class or ''} | {microseconds(own_ms)} | {vendor} | {against} | {ratio} | "
                     f"{roof} | {', '.join(missed)} |")

    def counts(kind, what):
        rows = judged[kind]
        each = "; ".join(f"{target}: {sum(r[target] for r in rows)}" for target in (rows[0] if rows else {}))
        return f"{what}: {len(rows)}" + (f"; {each}; all met: {sum(all(r.values()) for r in rows)}" if rows else "")

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
                        help="results whose passed rows count as baselines (kbenchpy's torch rows); repeatable")
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
    except InputError as error:
        print(f"zoo_scoreboard: error: {error}", file=sys.stderr)
        return 2
    try:
        print(table(cases, args))
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
