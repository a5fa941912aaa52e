"""scripts/plot_results.py: its input checks (no matplotlib needed) and the figures it writes
from the fixtures (skipped, with a line saying why, where matplotlib is not installed: Debian's
python3-matplotlib, which scripts/setup.sh installs)."""
import copy
import importlib.util
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import plot_results  # noqa: E402
from captured_main import run_captured  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures")
RUN_PASS = os.path.join(FIXTURES, "run-pass.json")
HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
NO_MATPLOTLIB = f"matplotlib is not installed for {sys.executable} (apt-get install python3-matplotlib): plots not checked"


def run_main(*argv):
    """(exit code, stdout, stderr) of plot_results.main(argv)."""
    return run_captured(plot_results.main, argv)


class InputChecks(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def write(self, name, content):
        path = os.path.join(self.folder.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def assert_input_error(self, path, text):
        code, _, err = run_main(path, "--out", os.path.join(self.folder.name, "plots"))
        self.assertEqual(code, 2, err)
        self.assertIn(text, err)
        self.assertFalse(os.path.exists(os.path.join(self.folder.name, "plots")), "no folder for unusable input")

    def fixture(self):
        with open(RUN_PASS, encoding="utf-8") as f:
            return json.load(f)

    def test_missing_file(self):
        path = os.path.join(self.folder.name, "no-such.json")
        self.assert_input_error(path, f"{path}: cannot open for reading")

    def test_not_json(self):
        path = self.write("text.json", "kbench: not json")
        self.assert_input_error(path, f"{path}: not valid JSON")

    def test_other_schema_version_names_file_and_field(self):
        self.assert_input_error(os.path.join(FIXTURES, "run-schema2.json"),
                                "run-schema2.json: $.schema_version is 2; this script reads version 1")

    def test_missing_field_names_its_path(self):
        document = self.fixture()
        del document["cases"][3]["traffic"]
        self.assert_input_error(self.write("broken.json", document), "broken.json: missing field $.cases[3].traffic")
        document = self.fixture()
        document["device"]["peak_bandwidth_gbps"] = "fast"
        self.assert_input_error(self.write("typed.json", document),
                                "typed.json: $.device.peak_bandwidth_gbps is a string; expected a number")

    def test_no_timed_rows(self):
        document = self.fixture()
        for row in document["cases"]:
            row.update(status="skipped", timings=[])
        path = self.write("skipped.json", document)
        self.assert_input_error(path, f"no timed row (status passed) in {path}: 24 skipped")


@unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
class Figures(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.out = os.path.join(self.folder.name, "plots")

    def assert_figures(self, names):
        for name in names:
            for extension in ("png", "svg"):
                path = os.path.join(self.out, f"{name}.{extension}")
                self.assertTrue(os.path.isfile(path), path)
                self.assertGreater(os.path.getsize(path), 1000, path)
        with open(os.path.join(self.out, f"{names[0]}.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(self.out, f"{names[0]}.svg"), encoding="utf-8") as f:
            self.assertIn("<svg", f.read(2000))

    def test_run_pass_writes_png_and_svg(self):
        code, out, err = run_main(RUN_PASS, "--out", self.out)
        self.assertEqual(code, 0, err)
        self.assert_figures(["efficiency_add", "roofline"])
        self.assertIn("plotted 24 timed rows from 1 file(s); 18 placed on the roofline", out)

    def test_untimed_rows_are_counted_and_files_combine(self):
        code, out, err = run_main(os.path.join(FIXTURES, "run-fail.json"), os.path.join(FIXTURES, "torch.json"),
                                  "--out", self.out)
        self.assertEqual(code, 0, err)
        self.assertIn("not plotted: 1 error, 1 incorrect, 1 skipped", out)
        self.assert_figures(["efficiency_add", "roofline"])

    def test_one_roofline_per_device(self):
        code, _, err = run_main(RUN_PASS, os.path.join(FIXTURES, "run-other-device.json"), "--out", self.out)
        self.assertEqual(code, 0, err)
        self.assert_figures(["roofline_Synthetic_GPU_test_fixture", "roofline_Another_Synthetic_GPU_test_fixture"])

    def test_svg_is_the_same_on_a_rerun(self):
        contents = []
        for _ in range(2):
            self.assertEqual(run_main(RUN_PASS, "--out", self.out)[0], 0)
            with open(os.path.join(self.out, "roofline.svg"), encoding="utf-8") as f:
                contents.append(f.read())
        self.assertEqual(contents[0], contents[1])

    def test_unknown_peaks_still_plot(self):
        with open(RUN_PASS, encoding="utf-8") as f:
            document = json.load(f)
        unknown = copy.deepcopy(document)
        unknown["device"].update(peak_bandwidth_gbps=0.0, peak_fp32_tflops=0.0)
        path = os.path.join(self.folder.name, "unknown-peaks.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(unknown, f)
        code, _, err = run_main(path, "--out", self.out)
        self.assertEqual(code, 0, err)
        self.assert_figures(["roofline"])


if __name__ == "__main__":
    unittest.main()
