"""kbenchpy.user_module and the rows kbenchpy.runner.plan_rows makes from modules, without a GPU
or PyTorch: the modules are written by the tests into a temporary folder, and their functions are
fakes that need no GPU (they take and return FakeTensor objects, or nothing at all). What is
checked: import failures, missing functions, wrong signatures, functions that raise, wrong output
shape or dtype, the KBENCH_KERNELS table and its dtype declarations; each failure a one-line
message naming the module and function, the row ERROR or INCORRECT, the other rows unaffected."""
import os
import tempfile
import textwrap
import unittest

from kbenchpy_path import ROOT
from kbenchpy import plan as plans, runner, user_module

FIXTURE = os.path.join(ROOT, "tests", "fixtures", "plans", "plan-small.json")
PLAN_OPS = ["add", "gelu_tanh", "matmul", "softmax", "sum_inner"]


class FakeTensor:
    """Stands in for a torch tensor: a shape and a dtype, nothing else (no GPU, no PyTorch)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype


class InFolder(unittest.TestCase):
    """Writes the test's modules into a temporary folder and loads them."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def write(self, name, text):
        path = os.path.join(self.folder.name, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def load(self, name, text):
        return user_module.load_module(self.write(name, text), PLAN_OPS)


class Modules(InFolder):
    def test_functions_named_after_ops(self):
        module = self.load("mine.py", '''
            """Fake kernels: no GPU needed."""
            from os.path import join as add   # imported, not defined here: not a kernel

            def softmax(x, out):
                pass

            def gelu_tanh(x, out=None):
                return out

            def helper(x):
                pass
            ''')
        self.assertEqual(module.error, "")
        self.assertEqual(sorted(module.functions), ["gelu_tanh", "softmax"])
        function, = module.functions_for("softmax")
        self.assertEqual((function.name, function.source, function.dtypes), ("softmax", module.path + ":softmax", None))
        self.assertEqual(module.functions_for("add"), [])
        self.assertIn("no function for op 'add' (define add(a, b, out)", user_module.missing_function(module, "add"))

    def test_table_with_dtypes(self):
        module = self.load("table.py", '''
            def rows(x, out): pass
            def tuned(x, out): pass
            def gelu(x, out): pass
            KBENCH_KERNELS = {"softmax": [rows, (tuned, ("fp16", "bf16"))], "gelu_tanh": gelu}
            def add(a, b, out): pass   # not in the table: the table is all that counts
            ''')
        self.assertEqual(module.error, "")
        self.assertEqual([f.name for f in module.functions_for("softmax")], ["rows", "tuned"])
        self.assertEqual(module.functions_for("softmax")[1].dtypes, ("fp16", "bf16"))
        self.assertTrue(module.functions_for("softmax")[1].serves("bf16"))
        self.assertFalse(module.functions_for("softmax")[1].serves("fp32"))
        self.assertEqual(module.functions_for("add"), [])
        self.assertIn("list one under KBENCH_KERNELS['add']", user_module.missing_function(module, "add"))

    def test_malformed_tables(self):
        cases = (
            ("KBENCH_KERNELS = [1]", "KBENCH_KERNELS is a list; expected a dict"),
            ("KBENCH_KERNELS = {'softmax': [3]}", "KBENCH_KERNELS['softmax'][0] is a int; expected a function"),
            ("def f(x, out): pass\nKBENCH_KERNELS = {'softmax': [(f, ('fp64',))]}",
             "KBENCH_KERNELS['softmax'][0]: expected (function, dtypes)"),
            ("KBENCH_KERNELS = {'softmax': 'f'}", "KBENCH_KERNELS['softmax'] is a str; expected a list"),
        )
        for i, (text, expected) in enumerate(cases):
            with self.subTest(text=text):
                module = self.load(f"bad{i}.py", text)
                self.assertIn(expected, module.error)
                self.assertTrue(module.error.startswith(module.path + ": "))

    def test_import_failures_are_one_line(self):
        cases = (
            ("import no_such_module_for_kbenchpy_tests\n", "import failed: ModuleNotFoundError: No module named"),
            ("def softmax(x, out)\n    pass\n", "import failed: SyntaxError"),
            ("raise RuntimeError('CUDA not available\\nsecond line')\n", "import failed: RuntimeError: CUDA not available"),
            ("import sys\nsys.exit(3)\n", "import failed: SystemExit: 3"),
        )
        for i, (text, expected) in enumerate(cases):
            with self.subTest(expected=expected):
                module = self.load(f"broken{i}.py", text)
                self.assertIn(expected, module.error)
                self.assertNotIn("\n", module.error)
                self.assertEqual(module.functions, {})
        missing = user_module.load_module(os.path.join(self.folder.name, "absent.py"), PLAN_OPS)
        self.assertIn("absent.py: no such file", missing.error)

    def test_module_imports_its_own_helpers(self):
        self.write("helpers_for_kbenchpy_test.py", "SCALE = 2\n")
        module = self.load("uses_helper.py", "import helpers_for_kbenchpy_test\ndef softmax(x, out): pass\n")
        self.assertEqual(module.error, "")

    def test_signatures(self):
        module = self.load("sigs.py", '''
            def softmax(x): pass                 # no out
            def add(a, b, out, *, alpha=1): pass # fine: extra keyword-only with a default
            def sum_inner(*tensors): pass        # fine: takes anything
            def matmul(a, out): pass             # one input short
            ''')
        problems = {op: user_module.signature_problem(module.functions_for(op)[0])
                    for op in ("softmax", "add", "sum_inner", "matmul")}
        self.assertIn(":softmax: signature softmax(x) cannot be called as softmax(x, out)", problems["softmax"])
        self.assertEqual((problems["add"], problems["sum_inner"]), ("", ""))
        self.assertIn("cannot be called as matmul(a, b, out)", problems["matmul"])

    def test_calls(self):
        module = self.load("calls.py", '''
            """Fake kernels taking FakeTensor objects from the test: they compute nothing."""
            def softmax(x, out):
                return None

            def gelu_tanh(x, out):
                return out

            def add(a, b, out):
                raise ValueError("BLOCK must be a power of two\\n(more detail)")

            def sum_inner(x, out):
                return type(out)((7,), out.dtype)    # wrong shape

            def matmul(a, b, out):
                return type(out)(out.shape, "float16")  # wrong dtype
            ''')
        out = FakeTensor((4, 8), "float32")
        x = FakeTensor((4, 8), "float32")
        call = lambda op, *inputs: user_module.call_checked(module.functions_for(op)[0], list(inputs), out)  # noqa: E731
        self.assertIs(call("softmax", x), out)
        self.assertIs(call("gelu_tanh", x), out)
        with self.assertRaises(user_module.KernelError) as caught:
            call("add", x, x)
        self.assertEqual(str(caught.exception), f"{module.path}:add raised ValueError: BLOCK must be a power of two")
        with self.assertRaises(user_module.KernelIncorrect) as caught:
            call("sum_inner", x)
        self.assertIn(":sum_inner returned a float32 tensor of shape [7]; expected float32 of shape [4, 8]",
                      str(caught.exception))
        with self.assertRaises(user_module.KernelIncorrect) as caught:
            call("matmul", x, x)
        self.assertIn(":matmul returned a float16 tensor of shape [4, 8]; expected float32", str(caught.exception))
        returned_int = user_module.KernelFunction("m.py", "f", "softmax", lambda x, out: 3, None)
        with self.assertRaises(user_module.KernelIncorrect) as caught:
            user_module.call_checked(returned_int, [x], out)
        self.assertIn("m.py:f returned a int; expected None, out or a tensor", str(caught.exception))


class Rows(InFolder):
    """plan_rows on the fixture plan: what each case gets, and which rows fail before the GPU."""

    def rows(self, modules, torch_variants=()):
        plan = plans.read_plan(FIXTURE)
        planned = runner.plan_rows(plan, modules, torch_variants)
        return {(case.op, case.dtype, case.shape): rows for case, rows in planned}

    def test_rows_per_function_and_case(self):
        good = self.load("good.py", '''
            def a(x, out): pass
            def b(x, out): pass
            def bad_signature(x): pass
            KBENCH_KERNELS = {"softmax": [a, (b, ["fp32"])], "gelu_tanh": [bad_signature]}
            ''')
        broken = self.load("broken.py", "import no_such_module_for_kbenchpy_tests\n")
        table = self.rows([good, broken], ("torch_eager",))
        softmax = table[("softmax", "fp16", (128, 1000))]
        self.assertEqual([(p.row["variant"], p.row["role"], p.row.get("source")) for p in softmax],
                         [("a", "own", good.path + ":a"), ("b", "own", good.path + ":b"),
                          ("broken", "own", broken.path), ("torch_eager", "baseline", None)])
        self.assertTrue(softmax[0].to_run)
        self.assertEqual((softmax[1].row["status"], softmax[1].row["message"]),
                         ("skipped", f"skipped: {good.path}:b declares dtypes fp32"))
        self.assertEqual(softmax[2].row["status"], "error")
        self.assertIn("import failed: ModuleNotFoundError", softmax[2].row["message"])
        self.assertTrue(softmax[3].to_run)
        gelu = table[("gelu_tanh", "bf16", (4096,))]
        self.assertEqual(gelu[0].row["status"], "error")
        self.assertIn(":bad_signature: signature bad_signature(x) cannot be called as gelu_tanh(x, out)", gelu[0].row["message"])
        add = table[("add", "fp32", (256, 256))]
        self.assertEqual((add[0].row["variant"], add[0].row["status"]), ("good", "error"))
        self.assertIn("no function for op 'add'", add[0].row["message"])
        large = table[("add", "fp32", (4096, 4096))]  # the plan's skipped case: nothing runs
        self.assertEqual({(p.row["status"], p.row["message"]) for p in large}, {("skipped", "skipped: too slow for this test")})
        self.assertEqual(len(large), 3)  # good's missing add, broken's import failure, torch_eager: all skipped

    def test_duplicate_variants_are_a_usage_error(self):
        one = self.load("one.py", "def softmax(x, out): pass\n")
        two = self.load("two.py", "def softmax(x, out): pass\n")
        with self.assertRaises(runner.UsageError) as caught:
            self.rows([one, two])
        self.assertIn("variant 'softmax' of " + two.path + ":softmax repeats " + one.path + ":softmax", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
