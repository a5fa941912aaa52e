"""`python3 -m kbenchpy` without a GPU: --help, --dry-run on the hand-written plan fixture (with
fake modules written by the tests, whose functions need no GPU), --config through a fake kbench
(a shell script), and the usage errors (exit 2) and the no-PyTorch exit (3)."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

from captured_main import run_captured
from kbenchpy_path import PYTHON, ROOT
from kbenchpy import cli

from test_plan import FIXTURE, fake_kbench

HAVE_TORCH = importlib.util.find_spec("torch") is not None


def run_main(*argv):
    """(exit code, stdout, stderr) of kbenchpy.cli.main(argv)."""
    return run_captured(cli.main, argv)


class CommandLine(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.module = os.path.join(self.folder.name, "fake_kernels.py")
        with open(self.module, "w") as f:
            f.write(textwrap.dedent('''
                """Fake kernels for the CLI tests: never called (dry run), no GPU needed."""
                def softmax(x, out): pass
                def gelu_tanh(x): pass
                '''))

    def test_help_as_a_module_needs_no_torch(self):
        env = dict(os.environ, PYTHONPATH=PYTHON)
        done = subprocess.run([sys.executable, "-m", "kbenchpy", "run", "--help"], capture_output=True, text=True,
                              env=env, cwd=self.folder.name, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        for text in ("--module FILE", "--plan PLAN", "--config FILE", "--kbench PATH", "GB/s"):
            self.assertIn(text, done.stdout)

    def test_torch_dry_run_lists_rows_from_the_plan(self):
        code, out, _ = run_main("torch", "--plan", FIXTURE, "--compile", "--dry-run")
        self.assertEqual(code, 0)
        lines = out.splitlines()
        self.assertEqual(lines[0], "add fp32 256x256 (small): torch_eager, torch_compile")
        self.assertIn("add fp32 4096x4096 (large): SKIPPED torch_eager: skipped: too slow for this test", lines)
        self.assertEqual(lines[-1], "5 problems, 10 rows; 2 rows not run (above)")

    def test_run_dry_run_names_each_failure(self):
        code, out, _ = run_main("run", "--plan", FIXTURE, "--module", self.module, "--torch", "--dry-run")
        self.assertEqual(code, 0)
        self.assertIn("softmax fp16 128x1000 (small): softmax, torch_eager", out)
        self.assertIn(f"gelu_tanh bf16 4096 (small): ERROR gelu_tanh: {self.module}:gelu_tanh: signature gelu_tanh(x) "
                      "cannot be called as gelu_tanh(x, out)", out)
        self.assertIn(f"add fp32 256x256 (small): ERROR fake_kernels: {self.module}: no function for op 'add'", out)

    def test_config_asks_kbench_with_the_arguments_after_double_dash(self):
        log = os.path.join(self.folder.name, "argv")
        kbench = fake_kbench(self.folder.name, f'echo "$@" > {log}\n'
                                               f'for a; do [ "$prev" = --json ] && cp {FIXTURE} "$a"; prev=$a; done')
        code, out, err = run_main("torch", "--config", "configs/softmax.json", "--kbench", kbench, "--dry-run",
                                  "--", "--op", "softmax", "--min-samples", "50")
        self.assertEqual(code, 0, err)
        with open(log) as f:
            self.assertEqual(f.read().split()[:6], ["--config", "configs/softmax.json", "--op", "softmax",
                                                    "--min-samples", "50"])
        self.assertIn("5 problems", out)

    def test_usage_errors_exit_2_with_one_line(self):
        existing = os.path.join(ROOT, "tests", "fixtures", "run-pass.json")
        cases = (
            (("torch", "--dry-run"), "give one of --plan PLAN or --config FILE"),
            (("torch", "--plan", FIXTURE, "--config", "c.json"), "give one of --plan PLAN or --config FILE"),
            (("torch", "--plan", "no-such-plan.json"), "no-such-plan.json: cannot open for reading"),
            (("torch", "--plan", existing), "this is a results file, not a plan"),
            (("torch", "--plan", FIXTURE, "--", "--op", "add"), "go to kbench with --config"),
            (("torch", "--plan", FIXTURE, "--json", existing), "run-pass.json' exists; give --force to replace it"),
            (("torch", "--plan", FIXTURE, "--json", FIXTURE, "--force"), "refusing to write"),
            (("torch", "--plan", FIXTURE, "--json", "/no/such/folder/out.json"), "folder '/no/such/folder' does not exist"),
            (("torch", "--config", "c.json", "--kbench", "/no/such/kbench"), "cannot run kbench '/no/such/kbench'"),
            (("run", "--plan", FIXTURE, "--module", self.module, "--module", self.module, "--dry-run"),
             "fake_kernels.py: given twice"),
        )
        for argv, text in cases:
            with self.subTest(argv=argv):
                code, _, err = run_main(*argv)
                self.assertEqual(code, 2, err)
                self.assertIn(text, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_run_needs_a_module(self):
        code, _, err = run_main("run", "--plan", FIXTURE)
        self.assertEqual(code, 2)
        self.assertIn("--module", err)

    @unittest.skipIf(HAVE_TORCH, "PyTorch is installed here: the no-PyTorch exit code is not reachable")
    def test_no_torch_exits_3(self):
        code, _, err = run_main("run", "--plan", FIXTURE, "--module", self.module)
        self.assertEqual(code, 3)
        self.assertIn("PyTorch is not installed", err)


if __name__ == "__main__":
    unittest.main()
