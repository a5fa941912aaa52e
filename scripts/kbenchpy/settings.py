"""The measurement settings, one row per key: the same table drives the scripts' options,
config validation and the results file's `settings` block (harness/config/measure_settings.cpp)."""
from dataclasses import dataclass

MODES = ("cold", "hot", "eager")  # measurement order


@dataclass(frozen=True)
class Setting:
    key: str
    kind: type  # int, float or str
    default: object
    minimum: float  # smallest accepted value (numbers only)
    unit: str
    help: str
    listed_at_default: bool = True  # False: left out of results files at its default, as kbench does

    @property
    def option(self):
        """The command-line option: "--min-samples" for "min_samples"."""
        return "--" + self.key.replace("_", "-")


TABLE = (
    Setting("modes", str, "all", 0, "cold|hot|eager|all",
            "measurement modes, comma-separated: cold (L2 flushed, one call per event pair), hot (CUDA-graph "
            "replay of back-to-back calls), eager (one event pair per call)"),
    Setting("warmup_calls", int, 10, 0, "calls", "untimed calls of each variant before sampling, at least"),
    Setting("warmup_time_s", float, 0.01, 0, "s", "and keep warming up for at least this long"),
    Setting("min_samples", int, 20, 1, "samples", "timed samples per variant and mode, at least"),
    Setting("max_samples", int, 2000, 1, "samples", "timed samples per variant and mode, at most"),
    Setting("min_time_s", float, 0.05, 0, "s", "measure at least this much GPU time per variant and mode"),
    Setting("max_noise", float, 0.02, 0, "fraction",
            "then stop once the relative IQR is at or below this, or has settled above it (0: stop at once)"),
    Setting("timeout_s", float, 10.0, 1e-3, "s", "wall-clock limit per variant and mode"),
    Setting("flush_l2", int, 1, 0, "0|1", "cold mode: 1 evicts L2 before every sample (reads a buffer of 2x L2)"),
    Setting("clock_floor", float, 0.75, 0, "fraction", "flag samples taken below this fraction of the peak SM clock"),
    Setting("keep_samples", int, 0, 0, "0|1", "1: keep every per-sample time in the results file"),
    Setting("counters", int, 0, 0, "0|1",
            "kbench only: 1 collects hardware counters with CUPTI after timing (ignored by the PyTorch baseline)",
            listed_at_default=False),
)

BY_KEY = {row.key: row for row in TABLE}


def defaults():
    """kbench's default settings, as a dict keyed like the results file's `settings`."""
    return {row.key: row.default for row in TABLE}


def for_results(settings):
    """The settings as a results file lists them: rows added later are left out at their default."""
    return {key: value for key, value in settings.items()
            if key not in BY_KEY or BY_KEY[key].listed_at_default or value != BY_KEY[key].default}


def parse_modes(text):
    """The modes `text` names ("cold,eager", "all"), in measurement order; ValueError if unknown."""
    wanted = [item.strip() for item in text.split(",") if item.strip()]
    if not wanted:
        raise ValueError("--modes is empty; expected cold, hot, eager or all")
    for mode in wanted:
        if mode != "all" and mode not in MODES:
            raise ValueError(f"--modes: unknown mode '{mode}'; valid: cold, hot, eager, all")
    return [mode for mode in MODES if mode in wanted or "all" in wanted]


def from_json(row, value):
    """(value, "") for a JSON value of the row's type, else (None, what was expected)."""
    if row.kind is str:
        return (value, "") if isinstance(value, str) else (None, f"expected a string ({row.unit})")
    if row.kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return (value, "") if ok else (None, f"expected an integer ({row.unit})")
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return (float(value), "") if ok else (None, f"expected a number ({row.unit})")


def validate(settings):
    """"" when the settings are usable, else what is wrong (as kbench's messages)."""
    for row in TABLE:
        value = settings.get(row.key, row.default)
        if row.kind is not str and not value >= row.minimum:
            return f"{row.option} is {value:g}; expected a value >= {row.minimum:g} ({row.unit})"
    if settings["flush_l2"] not in (0, 1):
        return "--flush-l2 must be 0 or 1"
    if settings["keep_samples"] not in (0, 1):
        return "--keep-samples must be 0 or 1"
    if settings.get("counters", 0) not in (0, 1):
        return "counters must be 0 or 1 (--counters is a flag: give it once)"
    if settings["clock_floor"] > 1:
        return f"--clock-floor is {settings['clock_floor']:g}; expected a fraction in [0, 1]"
    if settings["max_samples"] < settings["min_samples"]:
        return f"--max-samples ({settings['max_samples']}) is below --min-samples ({settings['min_samples']})"
    try:
        parse_modes(settings["modes"])
    except ValueError as error:
        return str(error)
    return ""
