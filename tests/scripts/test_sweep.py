"""Sweep configs expanded by scripts/kbenchpy/sweep.py, against kbench's own expectations.

The problem counts come from tests/CMakeLists.txt's `config_*` dry-run tests, which run the
real binary: when a config or kbench's expansion changes there, this test follows.
"""
import os
import re
import shlex
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from kbenchpy import sweep  # noqa: E402
from kbenchpy.sweep import Case, ConfigError, Filters, load_config, make_plan, parse_config  # noqa: E402

CONFIGS = os.path.join(ROOT, "configs")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


def kbench_dry_run_expectations():
    """[(test name, config path, filters, problems)] from tests/CMakeLists.txt's dry-run tests
    of configs that plan (exit code 0)."""
    with open(os.path.join(ROOT, "tests", "CMakeLists.txt"), encoding="utf-8") as f:
        text = f.read()
    found = []
    pattern = r'kbench_cli_test\((config_\w+) 0 "(\d+) problems, \d+ rows[^"]*" (.*)\)'
    for name, problems, args in re.findall(pattern, text):
        words = shlex.split(args.replace("${configs}", CONFIGS).replace("${fixtures}", FIXTURES))
        if "--dry-run" not in words or "--config" not in words:
            continue
        options = {"--op": [], "--size": [], "--dtype": []}
        for option, value in zip(words, words[1:]):
            if option in options:
                options[option] += value.split(",")
        found.append((name, words[words.index("--config") + 1],
                      Filters(options["--op"], options["--size"], options["--dtype"]), int(problems)))
    return found


class ShippedConfigs(unittest.TestCase):
    def test_problem_counts_match_kbench_dry_run(self):
        expectations = kbench_dry_run_expectations()
        self.assertGreaterEqual(len(expectations), 5, "tests/CMakeLists.txt's config_* tests were not found")
        for name, path, filters, problems in expectations:
            with self.subTest(name):
                self.assertEqual(len(make_plan(load_config(path), filters).cases), problems)

    def test_every_shipped_config_plans(self):
        counts = {"add": 21, "gelu": 42, "matmul": 32, "softmax": 21, "sum": 96, "all": 212}
        for name, problems in counts.items():
            with self.subTest(name):
                plan = make_plan(load_config(os.path.join(CONFIGS, name + ".json")))
                self.assertEqual(len(plan.cases), problems)
                self.assertEqual(plan.skipped, [])

    def test_add_order_is_kbench_run_order(self):
        cases = make_plan(load_config(os.path.join(CONFIGS, "add.json"))).cases
        self.assertEqual(cases[:4], [Case("add", (256, 256), "fp32", "small"), Case("add", (256, 256), "fp16", "small"),
                                     Case("add", (256, 256), "bf16", "small"), Case("add", (512, 512), "fp32", "small")])
        self.assertEqual([c.shape for c in cases[-6::3]], [(32, 512, 512), (16, 1024, 1024)])  # zipped, pow2 axis

    def test_all_includes_every_op_once(self):
        plan = make_plan(load_config(os.path.join(CONFIGS, "all.json")))
        self.assertEqual({c.op for c in plan.cases}, set(sweep.OPS))
        self.assertEqual(len(set(plan.cases)), len(plan.cases))

    def test_matmul_skips_name_kbench_variants_only(self):
        config = load_config(os.path.join(CONFIGS, "matmul.json"))
        case = Case("matmul", (8192, 8192, 8192), "fp32", "xlarge")
        self.assertIsNotNone(sweep.row_skip(config, case, "naive"))
        self.assertIsNone(sweep.row_skip(config, case, "torch_eager"))

    def test_settings_come_from_the_config(self):
        config = load_config(os.path.join(FIXTURES, "configs", "with-skips.json"))
        self.assertEqual(config.settings["min_samples"], 30)
        self.assertEqual(config.settings["modes"], "cold")
        self.assertEqual(config.settings["max_samples"], 2000)  # kbench's default

    def test_whole_case_skips(self):
        plan = make_plan(load_config(os.path.join(FIXTURES, "configs", "with-skips.json")))
        self.assertEqual(plan.skipped, [(Case("add", (4096, 4096), "fp32", "large"), "too slow for this test")])

    def test_filters(self):
        config = load_config(os.path.join(CONFIGS, "all.json"))
        self.assertEqual({c.op for c in make_plan(config, Filters(ops=["sum"])).cases},
                         {"sum_full", "sum_inner", "sum_outer", "max_inner"})
        tf32 = make_plan(config, Filters(dtypes=["tf32"])).cases
        self.assertEqual({(c.op, c.dtype) for c in tf32}, {("matmul", "tf32")})
        self.assertEqual(len(make_plan(config, Filters(size_classes=["small"], dtypes=["half"])).cases), 17)


def expand(sweep_object):
    return parse_config({"sweeps": [sweep_object]}, "test.json").sweeps[0].shapes


class Expansion(unittest.TestCase):
    def test_crossed_axes_first_varies_slowest(self):
        shapes = expand({"op": "add", "size_class": "x", "shape": ["M", "N"],
                         "axes": {"N": {"range": {"from": 10, "to": 35, "step": 10}}, "M": [1, 2]}})
        self.assertEqual(shapes, [(1, 10), (1, 20), (1, 30), (2, 10), (2, 20), (2, 30)])

    def test_repeated_axis_and_pow2(self):
        shapes = expand({"op": "add", "size_class": "x", "shape": ["N", 3, "N"], "axes": {"N": {"pow2": {"from": 4, "to": 32}}}})
        self.assertEqual(shapes, [(4, 3, 4), (8, 3, 8), (16, 3, 16), (32, 3, 32)])

    def test_zip_group_takes_the_place_of_its_first_axis(self):
        shapes = expand({"op": "add", "size_class": "x", "shape": ["B", "A", "C"],
                         "axes": {"A": [1, 2], "B": [7, 8], "C": [5, 6]}, "zip": [["A", "C"]]})
        self.assertEqual(shapes, [(7, 1, 5), (7, 2, 6), (8, 1, 5), (8, 2, 6)])

    def test_dtypes_default_to_fp32_and_canonicalise(self):
        config = parse_config({"dtypes": ["half", "bfloat16"], "sweeps": [
            {"op": "add", "size_class": "x", "shape": [4]},
            {"op": "add", "size_class": "y", "shape": [8], "dtypes": ["float"]}]}, "t.json")
        self.assertEqual([s.dtypes for s in config.sweeps], [["fp16", "bf16"], ["fp32"]])
        self.assertEqual(parse_config({"sweeps": [{"op": "add", "size_class": "x", "shape": [4]}]}, "t.json")
                         .sweeps[0].dtypes, ["fp32"])


class Errors(unittest.TestCase):
    def assert_error(self, document, text, filters=None):
        with self.assertRaises((ConfigError, ValueError)) as caught:
            make_plan(parse_config(document, "bad.json"), filters)
        self.assertIn(text, str(caught.exception))

    def test_fixture_messages_match_kbench(self):
        # The same texts tests/CMakeLists.txt expects from the binary for these files.
        for name, text in (("unknown-key", "unknown-key.json: $.sweeps[0]: unknown key 'shapes' (did you mean 'shape'?)"),
                           ("unknown-op", "unknown-op.json: $.sweeps[0].op: found \"sum\"; expected a registered op: add"),
                           ("bad-setting", "bad-setting.json: $.settings.min_samples: found 2.5; expected an integer"),
                           ("no-such-config", "no-such-config.json: cannot open for reading")):
            with self.subTest(name), self.assertRaises(ConfigError) as caught:
                make_plan(load_config(os.path.join(FIXTURES, "configs", name + ".json")))
            self.assertIn(text, str(caught.exception))

    def test_unknown_filter_names_what_the_config_holds(self):
        with self.assertRaises(ValueError) as caught:
            make_plan(load_config(os.path.join(CONFIGS, "add.json")), Filters(size_classes=["huge"]))
        self.assertIn("--size huge: ", str(caught.exception))
        self.assertIn("add.json has no size class 'huge'", str(caught.exception))

    def test_axis_errors(self):
        base = {"op": "add", "size_class": "x"}
        self.assert_error({"sweeps": [dict(base, shape=["N"], axes={"N": {"pow2": {"from": 4, "to": 1000}}})]},
                          "bad.json: $.sweeps[0].axes.N.pow2.to: found 1000; expected a power of two")
        self.assert_error({"sweeps": [dict(base, shape=["N", "M"], axes={"N": [1, 2], "M": [1]}, zip=[["N", "M"]])]},
                          "expected zipped axes of equal length")
        self.assert_error({"sweeps": [dict(base, shape=["N"], axes={"N": [1], "K": [2]})]},
                          "$.sweeps[0].axes.K: axis 'K' is not used in $.sweeps[0].shape")
        self.assert_error({"sweeps": [dict(base, shape=["X"], axes={"N": [1]})]}, "axis 'X' is not defined")
        self.assert_error({"sweeps": [dict(base, shape=[0])]}, "$.sweeps[0].shape[0]: found 0; expected a positive integer")
        self.assert_error({"sweeps": [dict(base, shape=[True])]}, "found true; expected a positive integer")
        self.assert_error({"sweeps": [dict(base, shape=["N"], axes={"N": {"range": {"from": 1, "to": 20000}}})]},
                          "the range has 20000 values")

    def test_case_errors(self):
        self.assert_error({"sweeps": [{"op": "matmul", "size_class": "x", "shape": [4, 4]}]},
                          "op 'matmul' cannot run shape 4x4: matmul needs a rank-3 shape")
        self.assert_error({"sweeps": [{"op": "add", "size_class": "x", "shape": [4], "dtypes": ["tf32"]}]},
                          "op 'add' does not support dtype tf32")
        self.assert_error({"sweeps": [{"op": "add", "size_class": "x", "shape": [4]},
                                      {"op": "add", "size_class": "y", "shape": [4]}]},
                          "bad.json: $.sweeps[1]: case add fp32 4 is already planned by bad.json: $.sweeps[0]")
        self.assert_error({"sweeps": [{"op": "add", "size_class": "x", "shape": [4]}], "skip": [{"reason": "r"}]},
                          "a skip must name at least one of op, size_class, shape, dtype, variant")
        self.assert_error({"sweeps": [{"op": "add", "size_class": "x", "shape": [4]}], "dtypes": ["fp64"]},
                          "$.dtypes[0]: found \"fp64\"")
        self.assert_error({"sweep": []}, "bad.json: $: unknown key 'sweep' (did you mean 'sweeps'?)")
        self.assert_error({"description": "no sweeps"}, "missing key 'sweeps' (or 'include')")
        self.assert_error({"sweeps": [{"op": "add", "size_class": "x", "shape": [4]}],
                           "settings": {"min_samples": 10, "max_samples": 5}},
                          "$.settings: --max-samples (5) is below --min-samples (10)")

    def test_include_cycle(self):
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "self.json")
            with open(path, "w") as f:
                f.write('{"include": ["self.json"]}')
            with self.assertRaises(ConfigError) as caught:
                load_config(path)
            self.assertIn("$.include[0]: 'self.json' includes itself", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
