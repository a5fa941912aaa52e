"""scripts/torch_baseline.py without a GPU: its command line, its case list, and the results
document it writes (from a fake measurement), read back as kbench's reader reads it.

Where PyTorch is installed, the references and the verification are checked on the CPU; where
a CUDA device is present too, one small config runs end to end. Elsewhere those tests are
skipped with a line saying why.
"""
import contextlib
import importlib.util
import io
import json
import os
import sys
import tempfile
import types
import unittest
from unittest import mock

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import torch_baseline as tb  # noqa: E402
from kbenchpy import results, settings, stats, sweep, thresholds  # noqa: E402

import kbench_reader  # noqa: E402

CONFIGS = os.path.join(ROOT, "configs")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
WITH_SKIPS = os.path.join(FIXTURES, "configs", "with-skips.json")
HAVE_TORCH = importlib.util.find_spec("torch") is not None


def run_main(*argv):
    """(exit code, stdout, stderr) of torch_baseline.main(argv)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = tb.main(list(argv))
        except SystemExit as exit_:
            code = exit_.code
    return code, out.getvalue(), err.getvalue()


class CommandLine(unittest.TestCase):
    def test_help_needs_no_torch(self):
        code, out, _ = run_main("--help")
        self.assertEqual(code, 0)
        self.assertIn("--config FILE", out)
        self.assertIn("--min-samples", out)

    def test_dry_run_lists_kbench_problems(self):
        code, out, _ = run_main("--config", os.path.join(CONFIGS, "add.json"), "--dry-run")
        self.assertEqual(code, 0)
        lines = out.splitlines()
        self.assertEqual(lines[0], "add fp32 256x256 (small): torch_eager")
        self.assertEqual(lines[-1], "21 problems, 21 rows")
        code, out, _ = run_main("--config", os.path.join(CONFIGS, "all.json"), "--dry-run", "--compile", "--op", "sum")
        self.assertEqual(out.splitlines()[-1], "96 problems, 192 rows")

    def test_dry_run_shows_skips(self):
        code, out, _ = run_main("--config", WITH_SKIPS, "--dry-run", "--compile")
        self.assertEqual(code, 0)
        self.assertIn("add fp32 4096x4096 (large): SKIPPED torch_eager, torch_compile: too slow for this test", out)
        self.assertEqual(out.splitlines()[-1], "4 problems, 8 rows; 2 rows skipped by the config")

    def test_usage_errors_exit_2_with_the_reason(self):
        cases = (
            (("--config", "no-such.json"), "no-such.json: cannot open for reading"),
            (("--config", os.path.join(CONFIGS, "add.json"), "--size", "huge"), "has no size class 'huge'"),
            (("--config", os.path.join(CONFIGS, "add.json"), "--dtype", "fp64"), "unknown dtype 'fp64'"),
            (("--config", WITH_SKIPS, "--min-samples", "10", "--max-samples", "5"),
             "--max-samples (5) is below --min-samples (10)"),
            (("--config", WITH_SKIPS, "--modes", "warm"), "unknown mode 'warm'"),
            (("--config", WITH_SKIPS, "--json", os.path.join(FIXTURES, "run-pass.json")),
             "run-pass.json' exists; give --force to replace it"),
            (("--config", WITH_SKIPS, "--json", WITH_SKIPS, "--force"), "refusing to write"),
            (("--config", WITH_SKIPS, "--json", "/no/such/folder/out.json"), "folder '/no/such/folder' does not exist"),
            (("--config", WITH_SKIPS, "--thresholds", "no-such-thresholds.json"), "not found"),
        )
        for argv, text in cases:
            with self.subTest(argv=argv):
                code, _, err = run_main(*argv)
                self.assertEqual(code, 2)
                self.assertIn(text, err)

    @unittest.skipIf(HAVE_TORCH, "PyTorch is installed here: the no-PyTorch exit code is not reachable")
    def test_no_torch_exits_3(self):
        code, _, err = run_main("--config", WITH_SKIPS)
        self.assertEqual(code, 3)
        self.assertIn("PyTorch is not installed", err)

    def test_settings_merge_defaults_config_then_command_line(self):
        args = tb.parse_args(["--config", WITH_SKIPS, "--max-samples", "100"])
        merged = tb.measurement_settings(args, sweep.load_config(WITH_SKIPS))
        self.assertEqual((merged["min_samples"], merged["modes"], merged["max_samples"], merged["warmup_calls"]),
                         (30, "cold", 100, 10))


def fake_torch(**props):
    """Just enough of torch for device_block and build_block."""
    properties = dict(name="Fake GPU", major=9, minor=0, multi_processor_count=132, L2_cache_size=50 << 20,
                      total_memory=80 << 30, clock_rate=1980000, memory_clock_rate=2619000, memory_bus_width=5120,
                      pci_bus_id=0x19, pci_domain_id=0, pci_device_id=0)
    properties.update(props)
    cuda = types.SimpleNamespace(get_device_properties=lambda index: types.SimpleNamespace(**properties),
                                 get_arch_list=lambda: ["sm_80", "sm_90", "compute_90"])
    return types.SimpleNamespace(cuda=cuda, __version__="2.11.0+fake",
                                 version=types.SimpleNamespace(cuda="13.0", debug=False))


@mock.patch.object(tb, "driver_attributes", lambda index: {})  # the fake device only, even where libcuda exists
class Document(unittest.TestCase):
    def test_device_block_from_properties(self):
        device = tb.device_block(fake_torch(), 0, 0.0)
        self.assertEqual((device["compute_capability"], device["sm_count"], device["runtime_version"]), ("9.0", 132, 13000))
        self.assertEqual(device["pci_bus_id"], "0000:19:00.0")
        self.assertAlmostEqual(device["peak_bandwidth_gbps"], 2 * 2619e6 * 5120 / 8 / 1e9)
        self.assertEqual(device["peak_bandwidth_source"], "device attributes")
        self.assertGreater(device["peak_fp16_tensor_tflops"], 0)

    def test_unknown_memory_clock_leaves_bandwidth_0_and_says_so(self):
        device = tb.device_block(fake_torch(memory_clock_rate=None, memory_bus_width=None), 0, 0.0)
        self.assertEqual((device["memory_clock_khz"], device["peak_bandwidth_gbps"]), (0, 0.0))
        self.assertIn("unknown", device["peak_bandwidth_source"])
        device = tb.device_block(fake_torch(memory_clock_rate=None), 0, 4800.0)
        self.assertEqual((device["peak_bandwidth_gbps"], device["peak_bandwidth_source"]), (4800.0, "override"))

    def test_build_block(self):
        build = tb.build_block(fake_torch())
        self.assertEqual(build["cuda_architectures"], "80-real,90-real,90-virtual")
        self.assertTrue(build["optimized"])
        self.assertIn("PyTorch 2.11.0+fake", build["version"])

    def test_git_state_takes_the_environment_override_like_the_cmake_build(self):
        with mock.patch.dict(os.environ, {"KBENCH_GIT_COMMIT": "42f1e7e", "KBENCH_GIT_DIRTY": "false"}):
            self.assertEqual(tb.git_state(), ("42f1e7e", "false"))
        with mock.patch.dict(os.environ, {"KBENCH_GIT_COMMIT": "42f1e7e", "KBENCH_GIT_DIRTY": "maybe"}):
            self.assertEqual(tb.git_state(), ("42f1e7e", "unknown"))
        with mock.patch.dict(os.environ, {"KBENCH_GIT_COMMIT": "not a hash"}):
            self.assertNotEqual(tb.git_state()[0], "not a hash")

    def test_document_from_a_fake_measurement_reads_like_kbench_output(self):
        config = sweep.load_config(WITH_SKIPS)
        planned = tb.plan_rows(config, sweep.make_plan(config), tb.VARIANTS)
        device = tb.device_block(fake_torch(), 0, 0.0)
        medians = {"torch_eager": 0.010, "torch_compile": 0.008}
        for case, rows in planned:
            for row in rows:
                if row["message"] != "not run":
                    continue  # skipped by the config
                for mode in ("cold", "eager"):
                    timing = tb.new_timing(mode, 10)
                    timing["stats"] = stats.summarize([medians[row["variant"]] * f for f in (0.99, 1.0, 1.01)])
                    timing["stop_reason"] = "max_samples"
                    row["timings"].append(timing)
                row.update(status="passed", message="ok: fake")
        cases = [row for _, rows in planned for row in rows]
        bands = thresholds.load_thresholds(os.path.join(CONFIGS, "thresholds.json"))
        document = results.make_document(tb.build_block(fake_torch()), "python3 torch_baseline.py", "2026-01-01T00:00:00Z",
                                         "host", 2**64 - 1, "complete", device, settings.defaults(), cases, bands)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "torch.json")
            results.write_results(document, path)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(kbench_reader.check(json.load(f)), "")
            back = results.read_results(path)
        self.assertEqual(len(back["cases"]), 10)
        first = back["cases"][0]
        self.assertEqual((first["op"], first["variant"], first["role"], first["shape"]), ("add", "torch_eager", "baseline", [256, 256]))
        self.assertAlmostEqual(first["derived"]["bandwidth_gbps"], 3 * 256 * 256 * 4 / 10e-6 / 1e9)
        self.assertEqual(first["derived"]["headline_mode"], "cold")
        self.assertAlmostEqual(back["cases"][1]["derived"]["speed_ratio"], 1.25)  # eager's time / compile's
        skipped = [row for row in back["cases"] if row["status"] == "skipped"]
        self.assertEqual([row["message"] for row in skipped], ["too slow for this test"] * 2)
        self.assertEqual(skipped[0]["derived"], results.empty_derived())


@unittest.skipUnless(HAVE_TORCH, "PyTorch is not installed: the references and the verification are not checked")
class Verification(unittest.TestCase):
    def test_every_op_passes_its_reference_on_the_cpu(self):
        import torch
        ops = tb.torch_ops(torch)
        for op in ops:
            shape = (48, 40, 32) if op == "matmul" else (3, 40, 33)
            for dtype in ("fp32", "bf16"):
                with self.subTest(op=op, dtype=dtype):
                    case = sweep.Case(op, shape, dtype, "test")
                    inputs = tb.make_inputs(torch, case, 7, "cpu")
                    ref, scale = tb.reference(torch, op, inputs)
                    tolerance = tb.TOLERANCES[tb.TOLERANCE_KIND[op]][dtype]
                    passed, verification, message = tb.verify(torch, ops[op](*inputs), ref, scale, tolerance)
                    self.assertTrue(passed, message)
                    self.assertEqual(verification["mismatches"], 0)

    def test_a_wrong_output_is_incorrect(self):
        import torch
        case = sweep.Case("add", (64,), "fp32", "test")
        inputs = tb.make_inputs(torch, case, 1, "cpu")
        ref, scale = tb.reference(torch, "add", inputs)
        wrong = inputs[0] + inputs[1]
        wrong[5] += 1e-3
        passed, verification, message = tb.verify(torch, wrong, ref, scale, tb.TOLERANCES["elementwise"]["fp32"])
        self.assertFalse(passed)
        self.assertEqual(verification["mismatches"], 1)
        self.assertIn("1 of 64 elements outside tolerance (first at 5", message)


def cuda_available():
    if not HAVE_TORCH:
        return False
    import torch
    return torch.cuda.is_available()


@unittest.skipUnless(cuda_available(), "no PyTorch with a CUDA device: the end-to-end run is not checked")
class EndToEnd(unittest.TestCase):
    def test_small_config_runs_and_reads_like_kbench_output(self):
        config = {"dtypes": ["fp32", "fp16"], "sweeps": [
            {"op": "add", "size_class": "small", "shape": [256, 256]},
            {"op": "sum_outer", "size_class": "small", "shape": [4, 64, 96]},
            {"op": "softmax", "size_class": "small", "shape": [128, 1000]},
            {"op": "matmul", "size_class": "small", "shape": [128, 96, 64], "dtypes": ["fp32", "tf32", "bf16"]}]}
        with tempfile.TemporaryDirectory() as folder:
            config_path, out = os.path.join(folder, "config.json"), os.path.join(folder, "torch.json")
            with open(config_path, "w") as f:
                json.dump(config, f)
            code, stdout, stderr = run_main("--config", config_path, "--json", out, "--min-samples", "5",
                                            "--max-samples", "64", "--min-time-s", "0", "--warmup-calls", "2")
            self.assertEqual(code, 0, stdout + stderr)
            with open(out, encoding="utf-8") as f:
                document = json.load(f)
        self.assertEqual(kbench_reader.check(document), "")
        self.assertEqual(document["run_state"], "complete")
        self.assertEqual([row["status"] for row in document["cases"]], ["passed"] * 9)
        self.assertEqual([t["mode"] for t in document["cases"][0]["timings"]], ["cold", "hot", "eager"])
        self.assertGreater(document["device"]["peak_bandwidth_gbps"], 0)


if __name__ == "__main__":
    unittest.main()
