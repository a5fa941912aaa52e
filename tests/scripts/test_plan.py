"""kbenchpy.plan: the plan reader, on the hand-written fixture tests/fixtures/plans/plan-small.json
(not written by kbench) and on malformed copies of it, one defect each; and plan_from_config on a
fake kbench (a shell script standing in for the binary)."""
import copy
import json
import os
import stat
import tempfile
import unittest

from kbenchpy_path import ROOT
from kbenchpy import plan as plans

FIXTURE = os.path.join(ROOT, "tests", "fixtures", "plans", "plan-small.json")


def fixture():
    with open(FIXTURE, encoding="utf-8") as f:
        return json.load(f)


class GoodPlan(unittest.TestCase):
    def test_fixture_reads_with_cases_in_order_and_skips(self):
        plan = plans.read_plan(FIXTURE)
        self.assertEqual([c.op for c in plan.cases], ["add", "softmax", "gelu_tanh", "sum_inner", "matmul"])
        add = plan.cases[0]
        self.assertEqual((add.shape, add.dtype, add.size_class, add.elements), ((256, 256), "fp32", "small", 65536))
        self.assertEqual(add.traffic, {"bytes_read": 524288.0, "bytes_written": 262144.0, "flops": 65536.0, "math": "fp32"})
        self.assertEqual(add.label(), "add fp32 256x256 (small)")
        self.assertEqual([r["variant"] for r in add.kbench_rows], ["blocked", "cub_transform", "d2d_copy"])
        self.assertEqual(plan.cases[4].traffic["math"], "tf32_tensor")
        (skipped, reason), = plan.skipped_cases
        self.assertEqual((skipped.shape, reason), ((4096, 4096), "too slow for this test"))
        self.assertEqual((plan.seed, plan.settings["modes"], plan.config), (12345, "cold,eager", "tests/fixtures/plans/small.json"))
        self.assertEqual(plan.thresholds["default"]["target_efficiency_pct"], 50)

    def test_null_seed_and_config_and_unknown_keys(self):
        document = fixture()
        document.update(seed=None, config=None, a_key_from_a_later_kbench={"x": 1})
        document["cases"][0]["another_new_key"] = 3
        plan = plans.parse_plan(document, "p.json")
        self.assertEqual((plan.seed, plan.config), (None, None))


class MalformedPlan(unittest.TestCase):
    def assert_refused(self, change, text):
        document = fixture()
        change(document)
        with self.assertRaises(plans.PlanError) as caught:
            plans.parse_plan(document, "p.json")
        self.assertIn(text, str(caught.exception))
        self.assertTrue(str(caught.exception).startswith("p.json: "), str(caught.exception))
        self.assertNotIn("\n", str(caught.exception))

    def test_version_and_kind(self):
        self.assert_refused(lambda d: d.update(plan_schema_version=2),
                            "$.plan_schema_version: found 2; this kbenchpy reads version 1")
        self.assert_refused(lambda d: d.update(plan_schema_version="1"), "$.plan_schema_version: found a string; expected an integer")
        self.assert_refused(lambda d: d.update(kind="kbench-results"), "$.kind: found 'kbench-results'; expected 'kbench-plan'")
        self.assert_refused(lambda d: (d.pop("plan_schema_version"), d.update(schema_version=1)),
                            "this is a results file, not a plan")

    def test_missing_keys(self):
        for key in ("plan_schema_version", "kind", "kbench", "command_line", "settings", "thresholds", "cases",
                    "skipped_cases"):
            with self.subTest(key=key):
                self.assert_refused(lambda d: d.pop(key), f"$: missing key '{key}'")
        for key in ("op", "shape", "dtype", "size_class", "elements", "traffic", "rows"):
            with self.subTest(key=key):
                self.assert_refused(lambda d: d["cases"][1].pop(key), f"$.cases[1]: missing key '{key}'")
        self.assert_refused(lambda d: d["cases"][0]["traffic"].pop("flops"), "$.cases[0].traffic: missing key 'flops'")
        self.assert_refused(lambda d: d["settings"].pop("min_samples"), "$.settings: missing key 'min_samples'")
        self.assert_refused(lambda d: d["skipped_cases"][0].pop("reason"), "$.skipped_cases[0]: missing key 'reason'")
        self.assert_refused(lambda d: d["cases"][0]["rows"][1].pop("role"), "$.cases[0].rows[1]: missing key 'role'")
        self.assert_refused(lambda d: d["thresholds"].pop("default"), "$.thresholds.default: missing")

    def test_wrong_types_and_values(self):
        cases = (
            (lambda d: d.update(cases={}), "$.cases: found an object; expected an array"),
            (lambda d: d["cases"].__setitem__(2, [1]), "$.cases[2]: found an array; expected an object (a case)"),
            (lambda d: d["cases"][0].update(shape=[256, 0]), "$.cases[0].shape: found [256, 0]; expected a non-empty array"),
            (lambda d: d["cases"][0].update(shape=[]), "$.cases[0].shape: found []"),
            (lambda d: d["cases"][0].update(shape=[256, "256"]), "$.cases[0].shape"),
            (lambda d: d["cases"][0].update(dtype="fp64"), "$.cases[0].dtype: found 'fp64'; expected one of fp32"),
            (lambda d: d["cases"][0].update(elements=2.5), "$.cases[0].elements: found a number; expected an integer"),
            (lambda d: d["cases"][0].update(elements=True), "$.cases[0].elements: found a boolean; expected an integer"),
            (lambda d: d["cases"][0]["traffic"].update(bytes_read="many"), "$.cases[0].traffic.bytes_read: found a string"),
            (lambda d: d["cases"][0]["traffic"].update(flops=-1), "$.cases[0].traffic.flops: found -1; expected a number >= 0"),
            (lambda d: d["cases"][0]["rows"][0].update(role="vendor"), "$.cases[0].rows[0].role: found 'vendor'"),
            (lambda d: d.update(seed=-3), "$.seed: found -3"),
            (lambda d: d.update(seed="7"), "$.seed: found a string; expected an integer"),
            (lambda d: d["settings"].update(min_samples=2.0), "$.settings.min_samples: found a number; expected an integer"),
            (lambda d: d["settings"].update(modes=3), "$.settings.modes: found an integer; expected a string"),
            (lambda d: d["settings"].update(modes="warm"), "$.settings: modes: unknown mode 'warm'"),
            (lambda d: d["settings"].update(max_samples=5), "expected 1 <= min_samples <= max_samples"),
            (lambda d: d["thresholds"]["default"].update(min_efficiency_pct=120), "$.thresholds.default.min_efficiency_pct"),
        )
        for change, text in cases:
            with self.subTest(text=text):
                self.assert_refused(change, text)

    def test_files(self):
        with self.assertRaises(plans.PlanError) as caught:
            plans.read_plan("no-such-plan.json")
        self.assertIn("no-such-plan.json: cannot open for reading", str(caught.exception))
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "bad.json")
            with open(path, "w") as f:
                f.write("{\"plan_schema_version\": 1,")
            with self.assertRaises(plans.PlanError) as caught:
                plans.read_plan(path)
            self.assertIn("bad.json: not valid JSON", str(caught.exception))
        with self.assertRaises(plans.PlanError) as caught:
            plans.read_plan(os.path.join(ROOT, "tests", "fixtures", "run-pass.json"))
        self.assertIn("this is a results file, not a plan", str(caught.exception))


def fake_kbench(folder, body):
    """A shell script standing in for kbench (no kbench binary is needed): `body` sees "$@"."""
    path = os.path.join(folder, "kbench")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


class FromConfig(unittest.TestCase):
    def test_kbench_is_asked_with_the_config_and_extra_arguments(self):
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "argv")
            # The fake copies the fixture to the path after --json and records its arguments.
            kbench = fake_kbench(folder, f'echo "$@" > {log}\nfor a; do [ "$prev" = --json ] && cp {FIXTURE} "$a"; prev=$a; done')
            plan = plans.plan_from_config("configs/x.json", kbench, ["--op", "softmax"])
            self.assertEqual(len(plan.cases), 5)
            with open(log) as f:
                argv = f.read().split()
        self.assertEqual(argv[:6], ["--config", "configs/x.json", "--op", "softmax", "--dry-run", "--json"])

    def test_kbench_failure_is_one_line_with_its_message(self):
        with tempfile.TemporaryDirectory() as folder:
            kbench = fake_kbench(folder, 'echo "kbench: error: configs/x.json: $.sweeps[0].op: unknown op" >&2; exit 2')
            with self.assertRaises(plans.PlanError) as caught:
                plans.plan_from_config("configs/x.json", kbench)
            self.assertIn("kbench exited 2 writing the plan: kbench: error: configs/x.json: $.sweeps[0].op", str(caught.exception))
            kbench = fake_kbench(folder, "exit 0")
            with self.assertRaises(plans.PlanError) as caught:
                plans.plan_from_config("c.json", kbench)
            self.assertIn("wrote no plan", str(caught.exception))
        with self.assertRaises(plans.PlanError) as caught:
            plans.plan_from_config("c.json", "/no/such/kbench")
        self.assertIn("cannot run kbench '/no/such/kbench'", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
