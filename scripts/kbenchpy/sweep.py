"""Sweep configs (configs/README.md): parsing, axis expansion, filters and skips.

A re-implementation of harness/config/sweep_config.cpp, sweep_axes.cpp and config_plan.cpp: the same
keys, the same checks, the same order of cases. `make_plan(load_config(path), Filters())` lists
the problems (op, shape, dtype, size class) that `kbench --config path --dry-run` lists, in the
same order; problems a skip without `variant` matches are listed apart with the skip's reason.

What kbench checks against its registry of kernels is checked here against kbenchpy.ops: op
names, families (`--op sum`), dtypes and shapes. Variant names are kbench's own business: a
sweep's `variants` list is type-checked only, and a skip that names a variant applies to the
row of that name (see Skip.matches).

Every error is a ConfigError whose text names the file and the JSON path of the field, what was
found and what was expected, like kbench's.
"""
import json
import os
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from . import settings as settings_table
from .dtypes import ALL_DTYPES, parse_dtype
from .ops import OPS, element_count, format_shape

MAX_SWEEP_SHAPES = 10000  # shapes one sweep may expand to (a guard against typos)
_MAX_INCLUDE_DEPTH = 8


class ConfigError(Exception):
    """A config that cannot be used: "FILE: $.PATH: what was found; what was expected"."""


# ---- small JSON helpers, as harness/common/json_input.cpp ----------------------------------------------

def did_you_mean(word, candidates):
    """" (did you mean 'x'?)" for the closest candidate within a few edits, else ""."""
    limit = max(2, len(word) // 3)
    best, best_distance = "", limit + 1
    for candidate in candidates:
        distance = _edit_distance(word, candidate)
        if distance < best_distance:
            best, best_distance = candidate, distance
    return f" (did you mean '{best}'?)" if best else ""


def _edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        diagonal, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            above = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1]))
            diagonal = above
    return row[len(b)]


def describe_json(value):
    """A short description of a JSON value for messages: "fp64" (quoted), 12, true, an array."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array" if value else "an empty array"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Place:
    """Where a value sits: a file and a JSON path ("$.sweeps[0].op")."""
    file: str
    path: str = "$"

    def key(self, name):
        return Place(self.file, f"{self.path}.{name}")

    def index(self, i):
        return Place(self.file, f"{self.path}[{i}]")

    def error(self, message):
        return ConfigError(f"{self.file}: {self.path}: {message}")

    def found_expected(self, value, expected):
        return self.error(f"found {describe_json(value)}; expected {expected}")


class _Object:
    """A JSON object with its place, for field access that reports the path of what is wrong."""

    def __init__(self, node, place):
        if not isinstance(node, dict):
            raise place.found_expected(node, "an object")
        self.node, self.place = node, place

    def allow_keys(self, known):
        for key in self.node:
            if key not in known:
                raise self.place.error(f"unknown key '{key}'{did_you_mean(key, known)}; expected one of: "
                                       + ", ".join(known))

    def has(self, key):
        return key in self.node

    def at(self, key):
        if key not in self.node:
            raise self.place.error(f"missing key '{key}'")
        return self.node[key]

    def string(self, key):
        value = self.at(key)
        if not isinstance(value, str):
            raise self.place.key(key).found_expected(value, "a string")
        return value

    def name(self, key):
        """A non-empty string (an op, size class or variant name)."""
        value = self.string(key)
        if not value:
            raise self.place.key(key).found_expected(value, "a non-empty name")
        return value

    def strings(self, key):
        return _string_list(self.at(key), self.place.key(key))

    def object(self, key):
        return _Object(self.at(key), self.place.key(key))


def _positive_integer(value, place):
    if not _is_int(value) or value <= 0:
        raise place.found_expected(value, "a positive integer")
    return value


def _string_list(value, place):
    if not isinstance(value, list):
        raise place.found_expected(value, "an array of strings")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise place.index(i).found_expected(item, "a string")
    return list(value)


def read_json_file(path):
    """The parsed document; ConfigError "PATH: cannot open for reading" or "not valid JSON"."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        raise ConfigError(f"{path}: cannot open for reading") from None
    try:
        return json.loads(text)
    except ValueError as error:
        raise ConfigError(f"{path}: not valid JSON: {error}") from None


# ---- axes and shapes, as harness/config/sweep_axes.cpp -------------------------------------------------

def parse_axis(spec, place):
    """The values of one axis: a list of positive integers, {"range": {"from", "to", "step"}}
    (from, from+step, ... up to `to` inclusive) or {"pow2": {"from", "to"}} (every power of two
    between two powers of two)."""
    if isinstance(spec, list):
        if not spec:
            raise place.found_expected(spec, "at least one value")
        return [_positive_integer(v, place.index(i)) for i, v in enumerate(spec)]
    if not isinstance(spec, dict):
        raise place.found_expected(spec, 'an array of positive integers, {"range": {...}} or {"pow2": {...}}')
    axis = _Object(spec, place)
    axis.allow_keys(["range", "pow2"])
    if len(spec) != 1:
        raise place.error(f"found {len(spec)} keys; expected exactly one of range, pow2")
    if axis.has("range"):
        return _parse_range(axis.object("range"))
    return _parse_pow2(axis.object("pow2"))


def _parse_range(r):
    r.allow_keys(["from", "to", "step"])
    start = _positive_integer(r.at("from"), r.place.key("from"))
    stop = _positive_integer(r.at("to"), r.place.key("to"))
    step = _positive_integer(r.at("step"), r.place.key("step")) if r.has("step") else 1
    if stop < start:
        raise r.place.key("to").found_expected(r.at("to"), f"a value >= from ({start})")
    count = (stop - start) // step + 1
    if count > MAX_SWEEP_SHAPES:
        raise r.place.error(f"the range has {count} values; expected at most {MAX_SWEEP_SHAPES}")
    return list(range(start, stop + 1, step))


def _parse_pow2(p):
    p.allow_keys(["from", "to"])
    start = _positive_integer(p.at("from"), p.place.key("from"))
    stop = _positive_integer(p.at("to"), p.place.key("to"))
    for key, value in (("from", start), ("to", stop)):
        if value & (value - 1):
            raise p.place.key(key).found_expected(value, "a power of two")
    if stop < start:
        raise p.place.key("to").found_expected(stop, f"a value >= from ({start})")
    values = [start]
    while values[-1] * 2 <= stop:
        values.append(values[-1] * 2)
    return values


def sweep_shapes(sweep):
    """The shapes of one sweep object (its "shape", "axes" and "zip" keys), in kbench's order:
    axes crossed, the axis (or zip group) that appears first in the template varying slowest."""
    axes = {}
    if sweep.has("axes"):
        node = sweep.object("axes")
        for name in sorted(node.node):  # kbench's JSON objects iterate in key order
            axes[name] = parse_axis(node.node[name], node.place.key(name))
    axis_names = list(axes)

    template = sweep.at("shape")
    shape_place = sweep.place.key("shape")
    if not isinstance(template, list) or not template:
        raise shape_place.found_expected(template, "a non-empty array of extents and axis names")
    order = []  # axis names in order of first use
    for i, term in enumerate(template):
        if isinstance(term, str):
            if term not in axes:
                defined = "; defined: " + ", ".join(axis_names) if axis_names else ""
                raise shape_place.index(i).error(f"axis '{term}' is not defined in {sweep.place.key('axes').path}"
                                                 f"{did_you_mean(term, axis_names)}{defined}")
            if term not in order:
                order.append(term)
        else:
            _positive_integer(term, shape_place.index(i))
    for name in axis_names:
        if name not in order:
            raise sweep.place.key("axes").key(name).error(f"axis '{name}' is not used in {shape_place.path}")

    group_of, zips = {}, []
    if sweep.has("zip"):
        zip_node, zip_place = sweep.at("zip"), sweep.place.key("zip")
        if not isinstance(zip_node, list):
            raise zip_place.found_expected(zip_node, 'an array of arrays of axis names, e.g. [["M", "N"]]')
        for g, group_node in enumerate(zip_node):
            group_place = zip_place.index(g)
            group = _string_list(group_node, group_place)
            if len(group) < 2:
                raise group_place.found_expected(group_node, "at least two axis names")
            for k, name in enumerate(group):
                if name not in axes:
                    raise group_place.index(k).error(f"axis '{name}' is not defined in "
                                                     f"{sweep.place.key('axes').path}{did_you_mean(name, axis_names)}")
                if name in group_of:
                    raise group_place.index(k).error(f"axis '{name}' is zipped twice")
                group_of[name] = len(zips)
                if len(axes[name]) != len(axes[group[0]]):
                    raise group_place.error(f"axis '{group[0]}' has {len(axes[group[0]])} values and axis '{name}' "
                                            f"has {len(axes[name])}; expected zipped axes of equal length")
            zips.append(group)

    # Factors of the product in template order: a zip group sits where its first axis appears.
    factors, placed = [], set()
    for name in order:
        group = group_of.get(name)
        if group is None:
            factors.append([name])
        elif group not in placed:
            placed.add(group)
            factors.append(zips[group])
    total = 1
    for factor in factors:
        total *= len(axes[factor[0]])
        if total > MAX_SWEEP_SHAPES:
            raise sweep.place.error(f"the axes expand to more than {MAX_SWEEP_SHAPES} shapes")

    shapes = []
    position = [0] * len(factors)
    for _ in range(total):
        value = {name: axes[name][position[f]] for f, factor in enumerate(factors) for name in factor}
        shape = tuple(value[term] if isinstance(term, str) else term for term in template)
        try:
            element_count(shape)
        except ValueError as error:
            raise shape_place.error(str(error)) from None
        shapes.append(shape)
        for f in reversed(range(len(factors))):  # the last factor varies fastest
            position[f] += 1
            if position[f] < len(axes[factors[f][0]]):
                break
            position[f] = 0
    return shapes


# ---- configs, as harness/config/sweep_config.cpp -------------------------------------------------------

@dataclass
class Sweep:
    op: str
    size_class: str
    shapes: List[Tuple[int, ...]]
    dtypes: List[str]
    variants: List[str]  # kbench variants the sweep names (empty: all); not used by the scripts
    origin: str  # "FILE: $.sweeps[i]", for messages


@dataclass
class Skip:
    """Cases or rows a config leaves out on purpose; every field that is set must match."""
    reason: str
    origin: str
    op: Optional[str] = None
    size_class: Optional[str] = None
    shape: Optional[Tuple[int, ...]] = None
    dtype: Optional[str] = None
    variant: Optional[str] = None

    def matches(self, case, variant=None):
        """True when the skip applies to the row `variant` of `case` (a Case); with variant None,
        when it applies to every row of the case (it names no variant)."""
        if self.variant is not None and self.variant != variant:
            return False
        return ((self.op is None or self.op == case.op) and
                (self.size_class is None or self.size_class == case.size_class) and
                (self.shape is None or self.shape == case.shape) and
                (self.dtype is None or self.dtype == case.dtype))


@dataclass
class SweepConfig:
    file: str  # the file given (not its includes)
    description: str = ""
    sweeps: List[Sweep] = field(default_factory=list)  # its includes' first, in order
    skips: List[Skip] = field(default_factory=list)
    settings: dict = field(default_factory=settings_table.defaults)  # kbench's defaults, then the files'
    settings_keys: List[str] = field(default_factory=list)  # the keys the files set, in order


def _dtype_name(value, place):
    expected = "one of " + ", ".join(ALL_DTYPES)
    if not isinstance(value, str):
        raise place.found_expected(value, expected)
    name = parse_dtype(value)
    if name is None:
        raise place.error(f"found {describe_json(value)}{did_you_mean(value, list(ALL_DTYPES))}; expected {expected}")
    return name


def _dtype_list(value, place):
    if not isinstance(value, list) or not value:
        raise place.found_expected(value, "a non-empty array of dtype names")
    names = []
    for i, item in enumerate(value):
        name = _dtype_name(item, place.index(i))
        if name in names:
            raise place.index(i).error(f"dtype {name} is listed twice")
        names.append(name)
    return names


def _parse_sweep(sweep, default_dtypes):
    sweep.allow_keys(["op", "size_class", "shape", "axes", "zip", "dtypes", "variants"])
    origin = f"{sweep.place.file}: {sweep.place.path}"
    op = sweep.name("op")
    size_class = sweep.name("size_class")
    shapes = sweep_shapes(sweep)
    dtypes = _dtype_list(sweep.at("dtypes"), sweep.place.key("dtypes")) if sweep.has("dtypes") else list(default_dtypes)
    variants = []
    if sweep.has("variants"):
        variants = sweep.strings("variants")
        if not variants:
            raise sweep.place.key("variants").found_expected([], "a non-empty array of variant names")
    return Sweep(op, size_class, shapes, dtypes, variants, origin)


def _parse_skip(skip):
    skip.allow_keys(["op", "size_class", "shape", "dtype", "variant", "reason"])
    reason = skip.string("reason")
    if not reason:
        raise skip.place.key("reason").found_expected(reason, "a non-empty reason")
    result = Skip(reason, f"{skip.place.file}: {skip.place.path}")
    if skip.has("op"):
        result.op = skip.name("op")
    if skip.has("size_class"):
        result.size_class = skip.name("size_class")
    if skip.has("variant"):
        result.variant = skip.name("variant")
    if skip.has("dtype"):
        result.dtype = _dtype_name(skip.at("dtype"), skip.place.key("dtype"))
    if skip.has("shape"):
        shape, place = skip.at("shape"), skip.place.key("shape")
        if not isinstance(shape, list) or not shape:
            raise place.found_expected(shape, "an array of positive integers")
        result.shape = tuple(_positive_integer(v, place.index(i)) for i, v in enumerate(shape))
    if all(getattr(result, key) is None for key in ("op", "size_class", "variant", "dtype", "shape")):
        raise skip.place.error("a skip must name at least one of op, size_class, shape, dtype, variant")
    return result


def _parse_settings(node, config):
    node.allow_keys([row.key for row in settings_table.TABLE])
    for key in sorted(node.node):
        value, error = settings_table.from_json(settings_table.BY_KEY[key], node.node[key])
        if error:
            raise node.place.key(key).error(f"found {describe_json(node.node[key])}; {error}")
        config.settings[key] = value
        if key in config.settings_keys:
            config.settings_keys.remove(key)
        config.settings_keys.append(key)
    problem = settings_table.validate(config.settings)
    if problem:
        raise node.place.error(problem)


def _parse_into(document, file, config, chain):
    root = _Object(document, Place(file))
    root.allow_keys(["description", "include", "dtypes", "settings", "sweeps", "skip"])
    if not config.description:
        config.description = root.string("description") if root.has("description") else ""
    elif root.has("description"):
        root.string("description")  # type-checked; the outermost one is kept
    if not root.has("include") and not root.has("sweeps"):
        raise root.place.error("missing key 'sweeps' (or 'include')")
    if root.has("include"):
        folder = os.path.dirname(file)
        place = root.place.key("include")
        for i, name in enumerate(root.strings("include")):
            path = os.path.normpath(os.path.join(folder, name))
            if path in chain or len(chain) >= _MAX_INCLUDE_DEPTH:
                raise place.index(i).error(f"'{name}' includes itself (through {', '.join(chain)})")
            try:
                included = read_json_file(path)
            except ConfigError as error:
                raise place.index(i).error(str(error)) from None
            _parse_into(included, path, config, chain + [path])
    if root.has("settings"):
        _parse_settings(root.object("settings"), config)
    dtypes = _dtype_list(root.at("dtypes"), root.place.key("dtypes")) if root.has("dtypes") else ["fp32"]
    if root.has("sweeps"):
        sweeps, place = root.at("sweeps"), root.place.key("sweeps")
        if not isinstance(sweeps, list) or not sweeps:
            raise place.found_expected(sweeps, "a non-empty array of sweeps")
        for i, sweep in enumerate(sweeps):
            config.sweeps.append(_parse_sweep(_Object(sweep, place.index(i)), dtypes))
    if root.has("skip"):
        skips, place = root.at("skip"), root.place.key("skip")
        if not isinstance(skips, list):
            raise place.found_expected(skips, "an array of skips")
        for i, skip in enumerate(skips):
            config.skips.append(_parse_skip(_Object(skip, place.index(i))))


def parse_config(document, file):
    """The config in `document`; `file` names it in messages and anchors its includes."""
    config = SweepConfig(file)
    _parse_into(document, file, config, [os.path.normpath(file)])
    return config


def load_config(path):
    """Reads and parses a config file and its includes. Raises ConfigError."""
    return parse_config(read_json_file(path), path)


# ---- plans, as harness/plan/config_plan.cpp ----------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One problem: an op over one shape in one dtype, reported under a size class."""
    op: str
    shape: Tuple[int, ...]
    dtype: str
    size_class: str

    def label(self):
        """"add fp16 256x256 (small)", as kbench's dry run prints a problem."""
        return f"{self.op} {self.dtype} {format_shape(self.shape)} ({self.size_class})"


@dataclass
class Filters:
    """Command-line filters (--op, --size, --dtype); empty lists filter nothing."""
    ops: List[str] = field(default_factory=list)  # op names or families ("sum")
    size_classes: List[str] = field(default_factory=list)
    dtypes: List[str] = field(default_factory=list)  # names or aliases; "all" filters nothing


@dataclass
class Plan:
    cases: List[Case] = field(default_factory=list)  # in run order
    skipped: List[Tuple[Case, str]] = field(default_factory=list)  # whole cases a skip matches, with its reason


def _check_ops(config):
    for sweep in config.sweeps:
        if sweep.op not in OPS:
            names = list(OPS)
            raise ConfigError(f"{sweep.origin}.op: found \"{sweep.op}\"{did_you_mean(sweep.op, names)}; "
                              f"expected a registered op: {', '.join(names)}")


def _check_filters(config, filters):
    held_ops, held_sizes = [], []
    for sweep in config.sweeps:
        for name in (sweep.op, OPS[sweep.op].family):
            if name not in held_ops:
                held_ops.append(name)
        if sweep.size_class not in held_sizes:
            held_sizes.append(sweep.size_class)
    for wanted, held, option, what, plural in ((filters.ops, held_ops, "--op", "op", "ops"),
                                               (filters.size_classes, held_sizes, "--size", "size class", "size classes")):
        for name in wanted:
            if name not in held:
                raise ValueError(f"{option} {name}: {config.file} has no {what} '{name}'{did_you_mean(name, held)}; "
                                 f"its {plural}: {', '.join(held)}")
    for name in filters.dtypes:
        if name != "all" and parse_dtype(name) is None:
            raise ValueError(f"unknown dtype '{name}'; valid: {', '.join(ALL_DTYPES)}, all")


def make_plan(config, filters=None):
    """The cases of the config's sweeps that pass `filters`, in kbench's order. Raises
    ConfigError (naming the file and JSON path) for an unknown op, a shape or dtype the op
    rejects, or a case planned twice; ValueError when a filter names something the config does
    not hold or nothing passes the filters."""
    filters = filters or Filters()
    _check_ops(config)
    _check_filters(config, filters)
    wanted_dtypes = None
    if filters.dtypes and "all" not in filters.dtypes:
        wanted_dtypes = {parse_dtype(name) for name in filters.dtypes}
    plan, planned = Plan(), {}
    for sweep in config.sweeps:
        op = OPS[sweep.op]
        if filters.ops and sweep.op not in filters.ops and op.family not in filters.ops:
            continue
        if filters.size_classes and sweep.size_class not in filters.size_classes:
            continue
        for shape in sweep.shapes:
            for dtype in sweep.dtypes:
                if wanted_dtypes is not None and dtype not in wanted_dtypes:
                    continue
                key = (sweep.op, shape, dtype)
                if key in planned:
                    raise ConfigError(f"{sweep.origin}: case {sweep.op} {dtype} {format_shape(shape)} is already "
                                      f"planned by {planned[key]}")
                planned[key] = sweep.origin
                why = op.reject_shape(shape)
                if why:
                    raise ConfigError(f"{sweep.origin}: op '{op.name}' cannot run shape {format_shape(shape)}: {why}")
                if dtype not in op.dtypes:
                    raise ConfigError(f"{sweep.origin}: op '{op.name}' does not support dtype {dtype}")
                case = Case(sweep.op, shape, dtype, sweep.size_class)
                skip = next((s for s in config.skips if s.matches(case)), None)
                if skip:
                    plan.skipped.append((case, skip.reason))
                else:
                    plan.cases.append(case)
    if not plan.cases and not plan.skipped:
        raise ValueError(f"no case of {config.file} passes the --op/--size/--dtype filters")
    return plan


def row_skip(config, case, variant):
    """The reason of the first skip that names `variant` and matches `case`, else None."""
    for skip in config.skips:
        if skip.variant is not None and skip.matches(case, variant):
            return skip.reason
    return None
