"""scripts/zoo_scoreboard.py on hand-made results documents (not measurements): which cases each
target judges, the faster baseline across files, gzipped input, and unusable files."""
import gzip
import json
import math
import os
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import zoo_scoreboard  # noqa: E402
from captured_main import run_captured  # noqa: E402


def row(op, variant, role, shape, median_us, elements=None, bound="memory", flops=0.0, status="passed", roof=None):
    """A results row timed at `median_us` (cold); `roof`: the copy roof's time over this row's."""
    count = elements if elements is not None else math.prod(shape)
    return {"op": op, "variant": variant, "role": role, "dtype": "fp16", "shape": shape, "size_class": "zoo",
            "elements": count, "status": status,
            "traffic": {"bytes_read": 2.0 * count, "bytes_written": 2.0 * count, "flops": flops, "math": "fp16"},
            "derived": {"efficiency": 0.5, "tflops": 0.0, "bandwidth_gbps": 1.0, "bound": bound, "roof_fraction": roof},
            "timings": [{"mode": "cold", "stats": {"count": 20, "median_ms": median_us / 1000.0}},
                        {"mode": "hot", "stats": {"count": 20, "median_ms": 1e-6}}]}


DEVICE = {"name": "Synthetic GPU (test fixture)", "peak_bandwidth_gbps": 2000.0, "peak_fp32_tflops": 50.0,
          "peak_tf32_tensor_tflops": 0.0, "peak_fp16_tensor_tflops": 0.0}


def run_main(*argv):
    """(exit code, stdout, stderr) of zoo_scoreboard.main(argv)."""
    return run_captured(zoo_scoreboard.main, argv)


class Scoreboard(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        big = [4096, 1024]  # 4M elements: judged
        self.run_rows = [
            # Meets both: 10 µs against a 9.5 µs baseline (0.95x), 85 % of the roof.
            row("add", "auto", "own", big, 10.0, roof=0.85), row("add", "cub", "baseline", big, 9.5),
            # Misses the roof only: 75 %.
            row("softmax", "auto", "own", [64, 65536], 20.0, roof=0.75),
            row("softmax", "cudnn", "baseline", [64, 65536], 40.0),
            # Too small to judge, however slow.
            row("sum_full", "auto", "own", [1000], 50.0, roof=0.02),
            # A GEMM of 2 GFLOP at 0.6x of cuBLAS; a GEMV (memory-bound, 16.8M tensor elements) at 90 %
            # of the roof, with no baseline that passed: its speed target cannot be met.
            row("matmul", "auto", "own", [1024, 1024, 1024], 100.0, bound="compute", flops=2.1e9, roof=0.01),
            row("matmul", "cublas", "baseline", [1024, 1024, 1024], 60.0, bound="compute", flops=2.1e9),
            row("matmul", "auto", "own", [1, 4096, 4096], 10.0, elements=16777216, flops=3.4e7, roof=0.9),
            row("matmul", "cublas", "baseline", [1, 4096, 4096], 9.0, elements=16777216, status="error"),
            # No passed auto row.
            row("gelu_tanh", "auto", "own", big, 5.0, status="incorrect"),
        ]
        # PyTorch is faster than the vendor on the add case: 0.90x, still met. A row that did not
        # pass and a row that is not a baseline are ignored.
        self.torch_rows = [row("add", "torch_compile", "baseline", big, 9.0),
                           row("add", "torch_eager", "baseline", big, 30.0),
                           row("add", "mine", "own", big, 1.0),
                           row("softmax", "torch_eager", "baseline", [64, 65536], 12.0, status="error")]

    def write(self, name, rows, compress=False):
        path = os.path.join(self.folder.name, name)
        with (gzip.open(path, "wt", encoding="utf-8") if compress else open(path, "w", encoding="utf-8")) as f:
            json.dump({"schema_version": 1, "device": DEVICE, "cases": rows}, f)
        return path

    def lines(self, text, start):
        return [line for line in text.splitlines() if line.startswith("| " + start)]

    def test_targets_and_counts(self):
        code, out, err = run_main(self.write("run.json", self.run_rows), "--against",
                                  self.write("torch.json.gz", self.torch_rows, compress=True))
        self.assertEqual(code, 0, err)
        # add meets; softmax misses its roof, the GEMV its speed target (no baseline); the small sum
        # and the untimed GELU are not counted.
        self.assertIn("Memory-bound cases of at least 4M elements: 3; >= 0.9x: 2; >= 80 % of roof: 2; all met: 1", out)
        self.assertIn("GEMMs of at least 1 GFLOP: 1; >= 0.7x: 0; all met: 0", out)
        self.assertIn("Not judged: 1 cases without a passed `auto` row", out)
        add = self.lines(out, "add fp16 4096x1024")[0]
        self.assertIn("0.900 (torch_compile)", add)  # exactly 0.9x: met
        self.assertNotIn("mine", add)
        self.assertTrue(add.endswith("| 85.0 % |  |"), add)
        self.assertTrue(self.lines(out, "softmax")[0].endswith("| 75.0 % | >= 80 % of roof |"))
        self.assertTrue(self.lines(out, "matmul fp16 1024x1024x1024")[0].endswith("| 0.600 (cublas) | 1.0 % | >= 0.7x |"))
        self.assertTrue(self.lines(out, "matmul fp16 1x4096x4096")[0].endswith("| 90.0 % | >= 0.9x (no baseline) |"))
        self.assertIn("a passed `auto` row", self.lines(out, "gelu_tanh")[0])
        small = self.lines(out, "sum_full")[0]
        self.assertTrue(small.endswith("| 2.0 % |  |"), small)

    def test_misses_only_and_thresholds(self):
        path = self.write("run.json", self.run_rows)
        _, out, _ = run_main(path, "--misses-only")
        self.assertEqual(len(self.lines(out, "add")), 0)
        self.assertEqual(len(self.lines(out, "softmax")), 1)
        _, out, _ = run_main(path, "--min-roof", "0.7", "--misses-only")
        self.assertEqual(len(self.lines(out, "softmax")), 0)

    def test_unusable_files(self):
        missing = os.path.join(self.folder.name, "none.json")
        code, _, err = run_main(missing)
        self.assertEqual(code, 2)
        self.assertIn(f"{missing}: cannot open for reading", err)
        for name, content, text in (("text.json", "kbench", "not valid JSON"),
                                    ("truncated.json.gz", None, "cannot open for reading"),
                                    ("object.json", json.dumps({"schema_version": 1, "device": DEVICE}), "missing field $.cases"),
                                    ("bad-row.json", json.dumps({"schema_version": 1, "device": DEVICE,
                                                                 "cases": [{"variant": "auto"}]}), "$.cases[0]")):
            path = os.path.join(self.folder.name, name)
            if content is None:
                with open(self.write("whole.json.gz", self.run_rows, compress=True), "rb") as f:
                    data = f.read()
                with open(path, "wb") as f:
                    f.write(data[: len(data) // 2])
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(content)
            code, _, err = run_main(path)
            self.assertEqual(code, 2, name)
            self.assertIn(text, err, name)
            self.assertTrue(err.startswith(f"zoo_scoreboard: error: {path}"), err)

if __name__ == "__main__":
    unittest.main()
