"""`python3 -m pip install` of python/ (kbenchpy's pyproject.toml) into a temporary --target
folder, from a copy of the folder (so no build output lands in the checkout), then
`python3 -m kbenchpy --help` from that folder alone.

The install is --no-build-isolation --no-index (nothing is downloaded), so the interpreter needs
pip, setuptools and a wheel builder (the `wheel` package, or setuptools >= 70.1's own). The test
uses the first of this Python and Debian's /usr/bin/python3 that has them, and is skipped, saying
what each lacks, where neither does."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from kbenchpy_path import PYTHON

PROBE = """import importlib.util as u
missing = [n for n in ("pip", "setuptools") if u.find_spec(n) is None]
if u.find_spec("wheel") is None and (u.find_spec("setuptools") is None or u.find_spec("setuptools.command.bdist_wheel") is None):
    missing.append("wheel")
print(" ".join(missing))"""


def installer():
    """(interpreter, "") for the first Python that can build kbenchpy, else (None, what each lacks)."""
    lacks = []
    for python in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if not os.path.exists(python):
            continue
        done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=60)
        missing = done.stdout.strip() if done.returncode == 0 else "a working interpreter"
        if not missing:
            return python, ""
        lacks.append(f"{python} lacks {missing}")
    return None, "; ".join(lacks)


PYTHON_FOR_PIP, WHY_NOT = installer()


@unittest.skipIf(PYTHON_FOR_PIP is None, f"the pip install is not checked: {WHY_NOT} "
                                         "(Debian: apt-get install python3-pip python3-setuptools python3-wheel)")
class Install(unittest.TestCase):
    def test_pip_install_of_the_folder_runs_as_a_module(self):
        python = PYTHON_FOR_PIP
        with tempfile.TemporaryDirectory() as folder:
            source, target = os.path.join(folder, "src"), os.path.join(folder, "site")
            shutil.copytree(PYTHON, source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
            done = subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                                   "--disable-pip-version-check", "--quiet", "--target", target, source],
                                  capture_output=True, text=True, timeout=300)
            self.assertEqual(done.returncode, 0, f"{python}: " + done.stdout + done.stderr)
            self.assertTrue(os.path.isfile(os.path.join(target, "kbenchpy", "user_module.py")))
            env = dict(os.environ, PYTHONPATH=target)
            where = subprocess.run([python, "-c", "import kbenchpy; print(kbenchpy.__file__)"],
                                   capture_output=True, text=True, env=env, cwd=folder, timeout=60)
            self.assertTrue(where.stdout.startswith(target), where.stdout + where.stderr)
            run = subprocess.run([python, "-m", "kbenchpy", "torch", "--help"], capture_output=True, text=True,
                                 env=env, cwd=folder, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("--plan PLAN", run.stdout)


if __name__ == "__main__":
    unittest.main()
