"""Sample statistics and the stopping rule, as kbench computes them (harness/results/stats.cpp,
harness/measure/stopping_rule.cpp). Times are in milliseconds."""
import math

_SETTLED_WINDOW = 3  # batch-end noise estimates that must agree
_SETTLED_TOLERANCE = 0.10  # relative spread allowed among them
_SETTLED_ABSOLUTE = 0.01  # or this absolute spread (one point of relative IQR)


def _quantile_sorted(values, q):
    """Linear interpolation between the closest ranks of sorted `values`."""
    position = q * (len(values) - 1)
    lower = math.floor(position)
    upper = min(lower + 1, len(values) - 1)
    return values[lower] + (position - lower) * (values[upper] - values[lower])


def summarize(samples_ms):
    """A timing's `stats` object: count, median_ms, min_ms, max_ms, mean_ms, stddev_ms (n - 1),
    q1_ms, q3_ms and relative_iqr ((q3 - q1) / median)."""
    values = sorted(samples_ms)
    stats = {"count": len(values), "median_ms": 0.0, "min_ms": 0.0, "max_ms": 0.0, "mean_ms": 0.0,
             "stddev_ms": 0.0, "q1_ms": 0.0, "q3_ms": 0.0, "relative_iqr": 0.0}
    if not values:
        return stats
    mean = sum(values) / len(values)
    stats.update(median_ms=_quantile_sorted(values, 0.5), min_ms=values[0], max_ms=values[-1], mean_ms=mean,
                 q1_ms=_quantile_sorted(values, 0.25), q3_ms=_quantile_sorted(values, 0.75))
    if len(values) > 1:
        stats["stddev_ms"] = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    median = stats["median_ms"]
    stats["relative_iqr"] = (stats["q3_ms"] - stats["q1_ms"]) / median if median > 0 else 0.0
    return stats


class StoppingRule:
    """When to stop sampling one variant in one mode, asked after each batch: at max_samples; at
    timeout_s of wall time (timed out if min_samples was not reached); otherwise once min_samples
    and min_time_s of measured time are met and the relative IQR is at or below max_noise, or has
    settled above it (the last three batch-end estimates within 10 % or one point of each other);
    max_noise 0 stops as soon as min_samples and min_time_s are met."""

    def __init__(self, settings):
        self.settings = settings
        self.reason = ""
        self.timed_out = False
        self._history = []

    def should_stop(self, samples_ms, measured_s, wall_s):
        s = self.settings
        if len(samples_ms) >= s["max_samples"]:
            self.reason = "max_samples"
            return True
        if wall_s >= s["timeout_s"]:
            self.reason = "timeout"
            self.timed_out = len(samples_ms) < s["min_samples"]
            return True
        if len(samples_ms) < s["min_samples"] or measured_s < s["min_time_s"]:
            return False
        if s["max_noise"] <= 0:
            self.reason = "min_time"
            return True
        noise = summarize(samples_ms)["relative_iqr"]
        if noise <= s["max_noise"]:
            self.reason = "noise_target"
            return True
        self._history.append(noise)
        if len(self._history) >= _SETTLED_WINDOW:
            window = self._history[-_SETTLED_WINDOW:]
            if max(window) - min(window) <= max(_SETTLED_TOLERANCE * max(window), _SETTLED_ABSOLUTE):
                self.reason = "noise_settled"
                return True
        return False
