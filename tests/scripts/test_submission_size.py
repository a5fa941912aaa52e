"""scripts/submission_size.sh on a repository the test makes: the sizes it prints, its exit code
under and over its share of the limits, a file deleted from the work tree, and a bad BASE."""
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
SCRIPT = os.path.join(ROOT, "scripts", "submission_size.sh")
GIT = shutil.which("git")


@unittest.skipIf(GIT is None or shutil.which("bash") is None, "git or bash is not installed: not checked")
class SubmissionSize(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.repo = self.folder.name
        self.git("init", "-q")
        self.commit("first.txt", b"base\n")
        self.base = self.git("rev-parse", "HEAD").strip()
        self.commit("data/large.bin", os.urandom(300_000))
        self.commit("small.txt", b"small\n")
        os.remove(os.path.join(self.repo, "small.txt"))  # deleted from the work tree, still at HEAD

    def git(self, *args):
        done = subprocess.run([GIT, "-c", "user.name=kbench test", "-c", "user.email=test@example.invalid", *args],
                              cwd=self.repo, capture_output=True, text=True, check=True)
        return done.stdout

    def commit(self, name, content):
        path = os.path.join(self.repo, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)
        self.git("add", name)
        self.git("commit", "-q", "-m", f"add {name}")

    def run_script(self, *args, fraction=None):
        env = dict(os.environ)
        env.pop("SUBMISSION_FRACTION", None)
        if fraction is not None:
            env["SUBMISSION_FRACTION"] = fraction
        return subprocess.run(["bash", SCRIPT, *args], cwd=self.repo, capture_output=True, text=True, env=env,
                              timeout=60)

    def test_under_the_limits(self):
        done = self.run_script(self.base)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("2 commits since", done.stdout)
        lines = done.stdout.splitlines()
        listed = lines[lines.index("  largest files added or changed (bytes at HEAD):") + 1:]
        self.assertEqual([line.split()[1] for line in listed], ["data/large.bin", "small.txt"])
        self.assertEqual(int(listed[0].split()[0]), 300_000)

    def test_over_a_share_of_a_limit(self):
        # Fails above 0.05 MiB packed or 0.03 MiB of diffs; the commits carry 0.3 MiB of random bytes.
        done = self.run_script(self.base, fraction="0.0001")
        self.assertEqual(done.returncode, 1)
        self.assertIn("over 0.0001 of a limit", done.stderr)

    def test_a_base_that_is_not_a_commit(self):
        done = self.run_script("no-such-commit")
        self.assertEqual(done.returncode, 2)
        self.assertIn("'no-such-commit' is not a commit", done.stderr)


if __name__ == "__main__":
    unittest.main()
