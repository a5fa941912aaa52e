"""kbench's expanded plan (`kbench ... --dry-run --json FILE`, results/PLAN_SCHEMA.md), read and
checked: the cases to run with their traffic, the cases a config skips, the measurement settings
and the thresholds. kbenchpy takes all of these from the plan and re-implements none of them.

read_plan(path) reads a plan file; plan_from_config(...) runs kbench to write one. Both raise
PlanError with one line naming the file and the JSON path of what is wrong.
"""
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Optional, Tuple

from . import settings as settings_keys
from . import thresholds as bands
from .json_file import read_json

PLAN_SCHEMA_VERSION = 1
PLAN_KIND = "kbench-plan"
DTYPES = ("fp32", "fp16", "bf16", "tf32")
ROLES = ("own", "baseline", "roof")


class PlanError(Exception):
    """A plan that cannot be used, or kbench failing to write one; the text names the file and field."""


@dataclass(frozen=True)
class Case:
    """One op x shape x dtype of the plan, with kbench's byte and FLOP model of one call."""
    op: str
    shape: Tuple[int, ...]
    dtype: str
    size_class: str
    elements: int
    traffic: dict  # bytes_read, bytes_written, flops, math
    kbench_rows: tuple = ()  # the variants kbench itself would run (dicts as in the plan)

    def label(self):
        """"softmax fp16 8192x8192 (large)", as kbench prints a case."""
        return f"{self.op} {self.dtype} {format_shape(self.shape)} ({self.size_class})"


@dataclass(frozen=True)
class Plan:
    path: str
    kbench: dict
    command_line: str
    config: Optional[str]
    seed: Optional[int]
    settings: dict
    thresholds: dict
    cases: tuple  # of Case, in run order
    skipped_cases: tuple  # of (Case, reason)


def format_shape(shape):
    """"4096x4096", as kbench prints shapes."""
    return "x".join(str(extent) for extent in shape)


def _describe(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {str: "a string", int: "an integer", float: "a number", list: "an array", dict: "an object"}.get(
        type(value), type(value).__name__)


class _Reader:
    """Field access that names the file and the JSON path in every error."""

    def __init__(self, path):
        self.path = path

    def fail(self, place, what):
        raise PlanError(f"{self.path}: {place}: {what}")

    def get(self, node, key, place, kind):
        """node[key] of `kind`: "string", "integer", "number", "array", "object"."""
        if key not in node:
            self.fail(place, f"missing key '{key}'")
        value = node[key]
        ok = {"string": isinstance(value, str), "array": isinstance(value, list), "object": isinstance(value, dict),
              "integer": isinstance(value, int) and not isinstance(value, bool),
              "number": isinstance(value, (int, float)) and not isinstance(value, bool)}[kind]
        if not ok:
            article = "an" if kind[0] in "aeiou" else "a"
            self.fail(f"{place}.{key}", f"found {_describe(value)}; expected {article} {kind}")
        return value

    def optional(self, node, key, place, kind):
        """node[key] of `kind`, or None when it is null."""
        return None if node.get(key, 0) is None else self.get(node, key, place, kind)

    def case(self, node, place, with_rows):
        if not isinstance(node, dict):
            self.fail(place, f"found {_describe(node)}; expected an object (a case)")
        op = self.get(node, "op", place, "string")
        shape = self.get(node, "shape", place, "array")
        if not shape or any(isinstance(e, bool) or not isinstance(e, int) or e < 1 for e in shape):
            self.fail(f"{place}.shape", f"found {json.dumps(shape)}; expected a non-empty array of integers >= 1")
        dtype = self.get(node, "dtype", place, "string")
        if dtype not in DTYPES:
            self.fail(f"{place}.dtype", f"found '{dtype}'; expected one of {', '.join(DTYPES)}")
        size_class = self.get(node, "size_class", place, "string")
        elements = self.get(node, "elements", place, "integer")
        if elements < 1:
            self.fail(f"{place}.elements", f"found {elements}; expected an integer >= 1")
        traffic = self.get(node, "traffic", place, "object")
        for key in ("bytes_read", "bytes_written", "flops"):
            if self.get(traffic, key, f"{place}.traffic", "number") < 0:
                self.fail(f"{place}.traffic.{key}", f"found {traffic[key]}; expected a number >= 0")
        self.get(traffic, "math", f"{place}.traffic", "string")
        rows = []
        if with_rows or "rows" in node:
            for i, row in enumerate(self.get(node, "rows", place, "array")):
                rows.append(self.row(row, f"{place}.rows[{i}]"))
        traffic = {key: (float(traffic[key]) if key != "math" else traffic[key])
                   for key in ("bytes_read", "bytes_written", "flops", "math")}
        return Case(op, tuple(shape), dtype, size_class, elements, traffic, tuple(rows))

    def row(self, node, place):
        if not isinstance(node, dict):
            self.fail(place, f"found {_describe(node)}; expected an object (a row)")
        self.get(node, "variant", place, "string")
        role = self.get(node, "role", place, "string")
        if role not in ROLES:
            self.fail(f"{place}.role", f"found '{role}'; expected one of {', '.join(ROLES)}")
        return node


def parse_plan(document, path):
    """A Plan from a parsed plan document; PlanError naming `path` and the field otherwise."""
    r = _Reader(path)
    if not isinstance(document, dict):
        r.fail("$", f"found {_describe(document)}; expected an object (a kbench plan)")
    if "plan_schema_version" not in document and "schema_version" in document:
        r.fail("$", "this is a results file, not a plan; write a plan with kbench ... --dry-run --json FILE")
    version = r.get(document, "plan_schema_version", "$", "integer")
    if version != PLAN_SCHEMA_VERSION:
        r.fail("$.plan_schema_version", f"found {version}; this kbenchpy reads version {PLAN_SCHEMA_VERSION}")
    kind = r.get(document, "kind", "$", "string")
    if kind != PLAN_KIND:
        r.fail("$.kind", f"found '{kind}'; expected '{PLAN_KIND}'")
    kbench = r.get(document, "kbench", "$", "object")
    command_line = r.get(document, "command_line", "$", "string")
    config = r.optional(document, "config", "$", "string")
    seed = r.optional(document, "seed", "$", "integer")
    if seed is not None and not 0 <= seed < 2**64:
        r.fail("$.seed", f"found {seed}; expected an unsigned 64-bit integer or null")
    settings = r.get(document, "settings", "$", "object")
    for key in settings_keys.TYPES:
        if key not in settings:
            r.fail("$.settings", f"missing key '{key}'")
        problem = settings_keys.type_problem(key, settings[key])
        if problem:
            r.fail(f"$.settings.{key}", f"found {_describe(settings[key])}; {problem}")
    problem = settings_keys.validate(settings)
    if problem:
        r.fail("$.settings", problem)
    thresholds = r.get(document, "thresholds", "$", "object")
    try:
        bands.check_thresholds(thresholds, f"{path}: $.thresholds")
    except bands.ThresholdsError as error:
        raise PlanError(str(error)) from None
    cases = tuple(r.case(node, f"$.cases[{i}]", True) for i, node in enumerate(r.get(document, "cases", "$", "array")))
    skipped = []
    for i, node in enumerate(r.get(document, "skipped_cases", "$", "array")):
        case = r.case(node, f"$.skipped_cases[{i}]", False)
        skipped.append((case, r.get(node, "reason", f"$.skipped_cases[{i}]", "string")))
    return Plan(path, kbench, command_line, config, seed, dict(settings), thresholds, cases, tuple(skipped))


def read_plan(path):
    """The plan in file `path`; PlanError naming the file and the field when it cannot be used."""
    document = read_json(path, PlanError)
    return parse_plan(document, path)


def find_kbench(given):
    """The kbench binary to ask for a plan: `given`, else $KBENCH, else `kbench` on PATH."""
    for candidate in (given, os.environ.get("KBENCH")):
        if candidate:
            return candidate
    found = shutil.which("kbench")
    if not found:
        raise PlanError("no kbench binary to write the plan: give --kbench PATH (e.g. build/kbench), set KBENCH, "
                        "or put kbench on PATH")
    return found


def plan_from_config(config, kbench, kbench_args=()):
    """Runs `kbench --config CONFIG [KBENCH_ARGS] --dry-run --json TMP` and reads the plan it writes.
    `kbench_args` are kbench's own selection and measurement options (--op, --size, --min-samples, ...)."""
    with tempfile.TemporaryDirectory(prefix="kbenchpy-plan-") as folder:
        out = os.path.join(folder, "plan.json")
        argv = [kbench, "--config", config, *kbench_args, "--dry-run", "--json", out]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        except OSError as error:
            raise PlanError(f"cannot run kbench '{kbench}' for the plan: {error.strerror}") from None
        except subprocess.TimeoutExpired:
            raise PlanError(f"kbench '{kbench}' wrote no plan within 300 s") from None
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            raise PlanError(f"kbench exited {done.returncode} writing the plan: "
                            f"{lines[-1] if lines else 'no message'} (command: {' '.join(argv)})")
        if not os.path.exists(out):
            raise PlanError(f"kbench exited 0 but wrote no plan to {out}: does '{kbench}' know --dry-run --json "
                            "(results/PLAN_SCHEMA.md)?")
        return read_plan(out)
