"""kbenchpy's device and build blocks from a fake torch (a namespace with the few attributes they
read), and a results document from a fake measurement of the fixture plan's rows (user functions
and PyTorch's), read back as kbench's reader reads it: first_call_ms and source included.

Where PyTorch is installed, the references and the verification are checked on the CPU; where a
CUDA device is present too, the fixture plan runs end to end with a PyTorch-only module. Elsewhere
those tests are skipped with a line saying why."""
import contextlib
import importlib.util
import io
import json
import os
import tempfile
import types
import unittest
from unittest import mock

from kbenchpy_path import ROOT
from kbenchpy import cli, device, measure, op_contract, plan as plans, results, runner, stats, user_module

import kbench_reader

FIXTURE = os.path.join(ROOT, "tests", "fixtures", "plans", "plan-small.json")
HAVE_TORCH = importlib.util.find_spec("torch") is not None


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


@mock.patch.object(device, "driver_attributes", lambda index: {})  # the fake device only, even where libcuda exists
class Document(unittest.TestCase):
    def test_device_block_from_properties(self):
        block = device.device_block(fake_torch(), 0, 0.0)
        self.assertEqual((block["compute_capability"], block["sm_count"], block["runtime_version"]), ("9.0", 132, 13000))
        self.assertEqual(block["pci_bus_id"], "0000:19:00.0")
        self.assertAlmostEqual(block["peak_bandwidth_gbps"], 2 * 2619e6 * 5120 / 8 / 1e9)
        self.assertEqual(block["peak_bandwidth_source"], "device attributes")
        self.assertGreater(block["peak_fp16_tensor_tflops"], 0)

    def test_unknown_memory_clock_leaves_bandwidth_0_and_says_so(self):
        block = device.device_block(fake_torch(memory_clock_rate=None, memory_bus_width=None), 0, 0.0)
        self.assertEqual((block["memory_clock_khz"], block["peak_bandwidth_gbps"]), (0, 0.0))
        self.assertIn("unknown", block["peak_bandwidth_source"])
        block = device.device_block(fake_torch(memory_clock_rate=None), 0, 4800.0)
        self.assertEqual((block["peak_bandwidth_gbps"], block["peak_bandwidth_source"]), (4800.0, "override"))

    def test_build_block(self):
        build = device.build_block(fake_torch(), "kbenchpy 1.0.0, PyTorch 2.11.0+fake")
        self.assertEqual(build["cuda_architectures"], "80-real,90-real,90-virtual")
        self.assertTrue(build["optimized"])
        self.assertEqual(build["version"], "kbenchpy 1.0.0, PyTorch 2.11.0+fake")

    def test_git_state_takes_the_environment_override_like_the_cmake_build(self):
        with mock.patch.dict(os.environ, {"KBENCH_GIT_COMMIT": "42f1e7e", "KBENCH_GIT_DIRTY": "false"}):
            self.assertEqual(device.git_state(), ("42f1e7e", "false"))
        with mock.patch.dict(os.environ, {"KBENCH_GIT_COMMIT": "42f1e7e", "KBENCH_GIT_DIRTY": "maybe"}):
            self.assertEqual(device.git_state(), ("42f1e7e", "unknown"))
        with mock.patch.dict(os.environ, {"KBENCH_GIT_COMMIT": "not a hash"}):
            self.assertNotEqual(device.git_state()[0], "not a hash")

    def test_document_from_a_fake_measurement_reads_like_kbench_output(self):
        plan = plans.read_plan(FIXTURE)
        mine = user_module.UserModule("my_kernels.py", "", {"softmax": [user_module.KernelFunction(
            "my_kernels.py", "softmax_rows", "softmax", lambda x, out: None, None)]})
        planned = runner.plan_rows(plan, [mine], ("torch_eager",))
        medians = {"softmax_rows": 0.008, "torch_eager": 0.010}
        for _, rows in planned:
            for p in rows:
                if not p.to_run:
                    continue
                for mode in ("cold", "eager"):
                    timing = measure.new_timing(mode, 10)
                    timing["stats"] = stats.summarize([medians[p.row["variant"]] * f for f in (0.99, 1.0, 1.01)])
                    timing["stop_reason"] = "max_samples"
                    p.row["timings"].append(timing)
                p.row.update(status="passed", message="ok: fake", first_call_ms=250.0)
        rows = [p.row for _, rows in planned for p in rows]
        block = device.device_block(fake_torch(), 0, 0.0)
        build = device.build_block(fake_torch(), "kbenchpy test")
        document = results.make_document(build, "python3 -m kbenchpy run", "2026-01-01T00:00:00Z", "host", 2**64 - 1,
                                         "complete", block, plan.settings, rows, plan.thresholds)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "mine.json")
            results.write_results(document, path)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(kbench_reader.check(json.load(f)), "")
            back = results.read_results(path)
        by_key = {(r["op"], r["variant"], tuple(r["shape"])): r for r in back["cases"]}
        own = by_key[("softmax", "softmax_rows", (128, 1000))]
        self.assertEqual((own["role"], own["source"], own["first_call_ms"]), ("own", "my_kernels.py:softmax_rows", 250.0))
        self.assertEqual(list(own)[:3], ["op", "variant", "source"])
        self.assertAlmostEqual(own["derived"]["speed_ratio"], 1.25)  # torch's time / the function's
        self.assertAlmostEqual(own["derived"]["bandwidth_gbps"], 2 * 128000 * 2 / 8e-6 / 1e9)
        self.assertEqual(own["derived"]["band"], "critical")  # 1.9 % of peak: below the fixture's 5 % for small
        torch_row = by_key[("softmax", "torch_eager", (128, 1000))]
        self.assertNotIn("source", torch_row)
        missing = by_key[("add", "my_kernels", (256, 256))]
        self.assertEqual((missing["status"], missing["source"]), ("error", "my_kernels.py"))
        self.assertNotIn("first_call_ms", missing)
        skipped = by_key[("add", "torch_eager", (4096, 4096))]
        self.assertEqual((skipped["status"], skipped["message"]), ("skipped", "skipped: too slow for this test"))


class KeepSamples(unittest.TestCase):
    def test_keep_samples_means_what_it_means_for_kbench(self):
        """0 none, 1 every mode's, 2 the headline mode's only (cold when planned, else the first)."""
        def kept(keep, modes):
            return [mode for mode in ("cold", "hot", "eager")
                    if measure.keeps_samples({"keep_samples": keep, "modes": modes}, mode)]
        self.assertEqual(kept(0, "all"), [])
        self.assertEqual(kept(1, "all"), ["cold", "hot", "eager"])
        self.assertEqual(kept(2, "all"), ["cold"])
        self.assertEqual(kept(2, "eager,hot"), ["hot"])


@unittest.skipUnless(HAVE_TORCH, "PyTorch is not installed: the references and the verification are not checked")
class Verification(unittest.TestCase):
    def test_every_op_passes_its_reference_on_the_cpu(self):
        import torch
        from kbenchpy.torch_ops import torch_ops
        ops = torch_ops(torch)
        for op in ops:
            shape = (48, 40, 32) if op == "matmul" else (3, 40, 33)
            for dtype in ("fp32", "bf16"):
                with self.subTest(op=op, dtype=dtype):
                    case = plans.Case(op, shape, dtype, "test", 1, {})
                    inputs = op_contract.make_inputs(torch, case, 7, "cpu")
                    ref, scale = op_contract.reference(torch, op, inputs)
                    output = ops[op](*inputs)
                    self.assertEqual(tuple(output.shape), op_contract.output_shape(op, shape))
                    passed, verification, message = op_contract.verify(torch, output, ref, scale,
                                                                        op_contract.tolerance(op, dtype))
                    self.assertTrue(passed, message)

    def test_an_unwritten_output_fails_verification(self):
        import torch
        case = plans.Case("softmax", (4, 64), "fp32", "test", 1, {})
        inputs = op_contract.make_inputs(torch, case, 1, "cpu")
        ref, scale = op_contract.reference(torch, "softmax", inputs)
        out = op_contract.poisoned_output(torch, case, "cpu")
        out[:2] = torch.softmax(inputs[0][:2], dim=-1)  # half the rows written
        passed, verification, message = op_contract.verify(torch, out, ref, scale, op_contract.tolerance("softmax", "fp32"))
        self.assertFalse(passed)
        self.assertEqual(verification["mismatches"], 128)
        self.assertIn("128 of 256 elements outside tolerance (first at 128: got nan", message)


def cuda_available():
    if not HAVE_TORCH:
        return False
    import torch
    return torch.cuda.is_available()


@unittest.skipUnless(cuda_available(), "no PyTorch with a CUDA device: the end-to-end run is not checked")
class EndToEnd(unittest.TestCase):
    def test_fixture_plan_runs_with_a_module_and_reads_like_kbench_output(self):
        with tempfile.TemporaryDirectory() as folder:
            module, out = os.path.join(folder, "torch_kernels.py"), os.path.join(folder, "mine.json")
            with open(module, "w") as f:
                f.write("import torch\n"
                        "def softmax(x, out):\n    out.copy_(torch.softmax(x, dim=-1))\n"
                        "def gelu_tanh(x, out):\n    return torch.nn.functional.gelu(x, approximate='tanh')\n"
                        "def add(a, b, out):\n    out.copy_(a)\n")  # wrong: INCORRECT
            argv = ["run", "--plan", FIXTURE, "--module", module, "--torch", "--json", out]
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                code = cli.main(argv)
            self.assertEqual(code, 1)
            with open(out, encoding="utf-8") as f:
                document = json.load(f)
        self.assertEqual(kbench_reader.check(document), "")
        status = {(r["op"], r["variant"]): r["status"] for r in document["cases"] if r["shape"] != [4096, 4096]}
        self.assertEqual(status[("softmax", "softmax")], "passed")
        self.assertEqual(status[("gelu_tanh", "gelu_tanh")], "passed")
        self.assertEqual(status[("add", "add")], "incorrect")
        self.assertEqual(status[("sum_inner", "torch_kernels")], "error")
        self.assertTrue(all(r["first_call_ms"] > 0 for r in document["cases"] if r["status"] == "passed"))


if __name__ == "__main__":
    unittest.main()
