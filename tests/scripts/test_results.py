"""python/kbenchpy: statistics, stopping rule, thresholds, peaks and derived figures, checked
against kbench's formulas and the fixtures under tests/fixtures (whose derived fields
make_fixtures.py computes with harness/results/metrics.cpp's formulas)."""
import copy
import json
import os
import sys
import unittest

from kbenchpy_path import ROOT
from kbenchpy import results, settings, stats, thresholds

import kbench_reader  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures")
#: kbench's default settings, as a plan carries them (tests/fixtures/run-pass.json's).
SETTINGS = {"modes": "all", "warmup_calls": 10, "warmup_time_s": 0.01, "min_samples": 20, "max_samples": 2000,
            "min_time_s": 0.05, "max_noise": 0.02, "timeout_s": 10.0, "flush_l2": 1, "clock_floor": 0.75,
            "keep_samples": 0}


class Statistics(unittest.TestCase):
    def test_quartiles_interpolate_like_kbench(self):
        s = stats.summarize([4.0, 1.0, 3.0, 2.0])
        self.assertEqual((s["count"], s["min_ms"], s["max_ms"]), (4, 1.0, 4.0))
        self.assertAlmostEqual(s["median_ms"], 2.5)
        self.assertAlmostEqual(s["q1_ms"], 1.75)
        self.assertAlmostEqual(s["q3_ms"], 3.25)
        self.assertAlmostEqual(s["relative_iqr"], 0.6)
        self.assertAlmostEqual(s["stddev_ms"], 1.2909944487358056)

    def test_empty_and_single(self):
        self.assertEqual(stats.summarize([])["count"], 0)
        self.assertEqual(stats.summarize([2.0])["stddev_ms"], 0.0)

    def test_stopping_rule(self):
        base = dict(SETTINGS)
        rule = stats.StoppingRule(dict(base, min_samples=4, min_time_s=0.0))
        self.assertFalse(rule.should_stop([1.0] * 3, 1.0, 0.1))
        self.assertTrue(rule.should_stop([1.0] * 4, 1.0, 0.1))
        self.assertEqual(rule.reason, "noise_target")
        rule = stats.StoppingRule(dict(base, max_noise=0.0, min_samples=2))
        self.assertFalse(rule.should_stop([1.0, 1.0], 0.01, 0.1))  # min_time_s 0.05 not met
        self.assertTrue(rule.should_stop([1.0, 1.0], 0.06, 0.1))
        self.assertEqual(rule.reason, "min_time")
        rule = stats.StoppingRule(dict(base, min_samples=100))
        self.assertTrue(rule.should_stop([1.0], 0.0, 11.0))
        self.assertEqual((rule.reason, rule.timed_out), ("timeout", True))
        noisy = [1.0, 2.0, 3.0, 4.0]
        rule = stats.StoppingRule(dict(base, min_samples=4, min_time_s=0.0))
        self.assertEqual([rule.should_stop(noisy, 1.0, 0.0) for _ in range(3)], [False, False, True])
        self.assertEqual(rule.reason, "noise_settled")

    def test_settings_validation(self):
        self.assertEqual(settings.validate(SETTINGS), "")
        self.assertIn("modes: unknown mode 'warm'", settings.validate(dict(SETTINGS, modes="cold,warm")))
        self.assertIn("expected a value >= 0", settings.validate(dict(SETTINGS, timeout_s=-1.0)))
        self.assertEqual(settings.type_problem("min_samples", 2.0), "expected an integer")
        self.assertEqual(settings.type_problem("max_noise", 1), "")
        self.assertEqual(settings.parse_modes("eager,cold"), ["cold", "eager"])
        self.assertEqual(settings.parse_modes("all"), ["cold", "hot", "eager"])


class Derived(unittest.TestCase):
    def test_fixtures_derived_fields_are_recomputed_exactly(self):
        bands = thresholds.load_thresholds(os.path.join(FIXTURES, "thresholds.json"))
        for name in ("run-pass", "run-fail", "torch", "run-other-device"):
            document = results.read_results(os.path.join(FIXTURES, name + ".json"))
            cases = copy.deepcopy(document["cases"])
            results.derive_metrics(cases, document["device"], bands)
            for mine, theirs in zip(cases, document["cases"]):
                for key, expected in theirs["derived"].items():
                    with self.subTest(file=name, row=f"{theirs['variant']} {theirs['dtype']} {theirs['shape']}", key=key):
                        if isinstance(expected, float):
                            self.assertAlmostEqual(mine["derived"][key], expected, delta=1e-9 * max(1.0, abs(expected)))
                        else:
                            self.assertEqual(mine["derived"][key], expected)

    def test_peaks_follow_device_info(self):
        device = {"compute_capability": "9.0", "sm_count": 132, "sm_clock_khz": 1980000,
                  "memory_clock_khz": 2619000, "bus_width_bits": 5120}
        results.fill_peaks(device)
        self.assertAlmostEqual(device["peak_bandwidth_gbps"], 2 * 2619e6 * 5120 / 8 / 1e9)
        self.assertAlmostEqual(device["peak_fp32_tflops"], 2 * 128 * 132 * 1.98e9 / 1e12)
        self.assertAlmostEqual(device["peak_fp16_tensor_tflops"], 132 * 1.98e9 * 4096 / 1e12)
        self.assertAlmostEqual(device["peak_tf32_tensor_tflops"], 132 * 1.98e9 * 2048 / 1e12)
        self.assertEqual(device["peak_bandwidth_source"], "device attributes")
        unknown = results.fill_peaks({"compute_capability": "6.1", "sm_count": 20, "sm_clock_khz": 1000,
                                      "memory_clock_khz": 0, "bus_width_bits": 256})
        self.assertEqual(unknown["peak_bandwidth_gbps"], 0.0)
        self.assertTrue(unknown["peak_bandwidth_source"].startswith("unknown"))
        self.assertEqual(unknown["peak_flops_source"], "unknown")

    def test_band_lookup_order(self):
        bands = thresholds.load_thresholds(os.path.join(ROOT, "configs", "thresholds.json"))
        self.assertEqual(thresholds.lookup(bands, "add", "large"), (0.70, 0.85))  # ops.add.large
        self.assertEqual(thresholds.lookup(bands, "matmul", "large"), (0.20, 0.50))  # ops.matmul.large
        self.assertEqual(thresholds.lookup(bands, "no_such_op", "large"), (0.10, 0.30))  # size_classes.large
        self.assertEqual(thresholds.lookup(bands, "add", "custom"), (0.25, 0.50))  # default
        self.assertEqual(thresholds.band(bands, "add", "large", 0.69), "critical")
        self.assertEqual(thresholds.band(bands, "add", "large", 0.70), "poor")
        self.assertEqual(thresholds.band(bands, "add", "large", 0.85), "good")

    def test_missing_thresholds_file(self):
        with self.assertRaises(thresholds.ThresholdsError) as caught:
            thresholds.load_thresholds("no-such-thresholds.json")
        self.assertIn("thresholds file 'no-such-thresholds.json' not found", str(caught.exception))


class Reading(unittest.TestCase):
    def test_fixtures_read_and_pass_kbench_reader(self):
        for name in ("run-pass", "run-fail", "torch"):
            with self.subTest(name):
                document = results.read_results(os.path.join(FIXTURES, name + ".json"))
                self.assertEqual(kbench_reader.check(document), "")

    def test_other_schema_version_names_file_and_field(self):
        with self.assertRaises(results.ResultsError) as caught:
            results.read_results(os.path.join(FIXTURES, "run-schema2.json"))
        self.assertIn("run-schema2.json: $.schema_version is 2; this script reads version 1", str(caught.exception))



class Layout(unittest.TestCase):
    def test_number_arrays_inline_like_kbench(self):
        doc = {"samples_ms": [0.004672, 0.00512], "shape": [4096, 17], "empty": [], "none": {},
               "mixed": [1, "x"], "flags": [True, False], "name": "é"}
        text = results.dumps_number_arrays_inline(doc)
        self.assertIn('"samples_ms": [0.004672, 0.00512]', text)
        self.assertIn('"shape": [4096, 17]', text)
        self.assertIn('"empty": []', text)
        self.assertIn('"mixed": [\n    1,\n    "x"\n  ]', text)
        self.assertIn('"flags": [\n    true,\n    false\n  ]', text)  # booleans are not numbers
        self.assertIn('"name": "é"', text)
        self.assertEqual(json.loads(text), doc)
        plain = {"a": {"b": ["x", {"c": -1.5}]}}
        self.assertEqual(results.dumps_number_arrays_inline(plain), json.dumps(plain, indent=2))


if __name__ == "__main__":
    unittest.main()
