"""tests/layering/check_layering.py on small synthetic trees: it passes a tree that keeps the
rules and names each kind of violation."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).resolve().parents[1] / "layering" / "check_layering.py"


def check(files):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            target = pathlib.Path(root) / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        done = subprocess.run([sys.executable, str(CHECKER), root], capture_output=True, text=True)
        return done.returncode, done.stdout


class LayeringTest(unittest.TestCase):
    def test_a_tree_that_keeps_the_rules_passes(self):
        code, out = check({
            "harness/results/results.hpp": "#include <vector>\n",
            "harness/report/table.cpp": '#include "harness/results/results.hpp"\n',
            "harness/measure/measure.cpp": '#include "harness/results/results.hpp"\n#include <cuda_runtime_api.h>\n',
        })
        self.assertEqual(code, 0, out)

    def test_a_reporter_including_a_measurement_header_fails(self):
        code, out = check({
            "harness/measure/timer.hpp": "#pragma once\n",
            "harness/report/table.cpp": '#include "harness/measure/timer.hpp"\n',
        })
        self.assertEqual(code, 1)
        self.assertIn("harness/report must not include harness/measure/timer.hpp", out)

    def test_a_cuda_header_reached_through_another_header_fails(self):
        code, out = check({
            "harness/ops/op.hpp": "#include <cuda_runtime_api.h>\n",
            "harness/config/classes.hpp": '#include "harness/ops/op.hpp"\n',
        })
        self.assertEqual(code, 1)
        self.assertIn("harness/config/classes.hpp: reaches a CUDA header", out)

    def test_printing_in_measurement_fails(self):
        code, out = check({"harness/measure/runner.cpp": 'void f() { std::cout << "x"; }\n'})
        self.assertEqual(code, 1)
        self.assertIn("harness/measure/runner.cpp:1: measurement prints", out)


if __name__ == "__main__":
    unittest.main()
