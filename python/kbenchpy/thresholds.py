"""Status bands from thresholds in configs/thresholds.json's format (harness/config/thresholds.cpp):
a plan carries the ones its run uses (`thresholds`).

A row of op O in size category C is judged by `ops.O.C`, else `size_classes.C`, else `default`:
efficiency below the minimum is "critical", below the target "poor", else "good".
"""
import json


class ThresholdsError(Exception):
    """A thresholds file that cannot be used; the text names the file and the field."""


def load_thresholds(path):
    """The parsed thresholds document, with its `default` entry checked. Raises ThresholdsError."""
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except OSError:
        raise ThresholdsError(f"thresholds file '{path}' not found") from None
    except ValueError as error:
        raise ThresholdsError(f"{path}: not valid JSON: {error}") from None
    return check_thresholds(document, f"{path}: $")


def check_thresholds(document, place):
    """`document` when its `default` entry is usable; ThresholdsError naming `place` otherwise."""
    if not isinstance(document, dict) or not isinstance(document.get("default"), dict):
        raise ThresholdsError(f"{place}.default: missing; expected an object with min_efficiency_pct and "
                              "target_efficiency_pct")
    _check_entry(document["default"], f"{place}.default")
    return document


def _check_entry(entry, place):
    for key in ("min_efficiency_pct", "target_efficiency_pct"):
        value = entry.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            raise ThresholdsError(f"{place}.{key}: found {value!r}; expected a percentage from 0 to 100")


def lookup(thresholds, op, size_class):
    """(minimum, target) efficiency, as fractions, for a row of `op` in `size_class`."""
    entry = thresholds.get("ops", {}).get(op, {}).get(size_class)
    if entry is None:
        entry = thresholds.get("size_classes", {}).get(size_class, thresholds["default"])
    return entry["min_efficiency_pct"] / 100, entry["target_efficiency_pct"] / 100


def band(thresholds, op, size_class, efficiency):
    """"critical", "poor" or "good" for a row's efficiency."""
    minimum, target = lookup(thresholds, op, size_class)
    if efficiency < minimum:
        return "critical"
    if efficiency < target:
        return "poor"
    return "good"
