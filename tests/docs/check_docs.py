#!/usr/bin/env python3
"""Checks the example scheduler files under docs/: the shell scripts parse (bash -n), the GitHub
Actions workflows parse as YAML with jobs and steps, and every kbench command they run names a
subcommand and options that `kbench --help` (and the subcommand's --help) lists.

usage: check_docs.py KBENCH_BINARY REPOSITORY_ROOT
Exits 77 (CTest: skipped) when PyYAML is missing, except under CI=true, where that fails."""

import glob
import os
import re
import subprocess
import sys

SUBCOMMANDS = {"report", "gate", "compare", "merge", "device", "list"}
KBENCH_CALL = re.compile(r"(?:^|[\s;&|(])(?:build/|\$\w+/|\S*/)?kbench\s+(.*)")


def help_text(kbench, subcommand):
    args = [kbench] + ([subcommand] if subcommand else []) + ["--help"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def kbench_commands(lines):
    """(subcommand or None, [options]) of each kbench call on a non-comment line."""
    calls = []
    for line in lines:
        if line.lstrip().startswith("#"):
            continue
        match = KBENCH_CALL.search(line)
        if not match:
            continue
        tokens = match.group(1).split()
        subcommand = tokens[0] if tokens and tokens[0] in SUBCOMMANDS else None
        options = [t.split("=")[0] for t in tokens if t.startswith("--")]
        calls.append((subcommand, options))
    return calls


def check_calls(kbench, where, calls, failures):
    for subcommand, options in calls:
        text = help_text(kbench, subcommand)
        for option in options:
            if not re.search(re.escape(option) + r"\b", text):
                failures.append(f"{where}: kbench {subcommand or ''} {option}: not in `kbench {subcommand or ''} --help`")


def main():
    kbench, root = sys.argv[1], sys.argv[2]
    failures = []
    calls_seen = 0

    scripts = sorted(glob.glob(os.path.join(root, "docs", "slurm", "*")))
    if not scripts:
        failures.append("docs/slurm: no scripts")
    for path in scripts:
        parsed = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
        if parsed.returncode != 0:
            failures.append(f"{path}: bash -n: {parsed.stderr.strip()}")
        with open(path, encoding="utf-8") as f:
            calls = kbench_commands(f.read().splitlines())
        calls_seen += len(calls)
        check_calls(kbench, path, calls, failures)

    try:
        import yaml
    except ImportError:
        message = "PyYAML is missing (scripts/setup.sh installs it): the workflows were not parsed"
        if os.environ.get("CI") == "true":
            raise SystemExit("FAIL: " + message)
        print("SKIP: " + message)
        sys.exit(77)
    for path in sorted(glob.glob(os.path.join(root, "docs", "github-actions", "*.yml"))):
        with open(path, encoding="utf-8") as f:
            try:
                workflow = yaml.safe_load(f)
            except yaml.YAMLError as error:
                failures.append(f"{path}: not valid YAML: {error}")
                continue
        jobs = workflow.get("jobs") if isinstance(workflow, dict) else None
        if not isinstance(jobs, dict) or not jobs:
            failures.append(f"{path}: no jobs")
            continue
        for name, job in jobs.items():
            steps = job.get("steps") if isinstance(job, dict) else None
            if not isinstance(steps, list) or not steps:
                failures.append(f"{path}: job {name} has no steps")
                continue
            for step in steps:
                run = step.get("run") if isinstance(step, dict) else None
                if isinstance(run, str):
                    calls = kbench_commands(run.splitlines())
                    calls_seen += len(calls)
                    check_calls(kbench, f"{path}: job {name}", calls, failures)

    if calls_seen == 0:
        failures.append("no kbench command found in docs/slurm or docs/github-actions")
    for failure in failures:
        print("FAIL: " + failure)
    if failures:
        sys.exit(1)
    print(f"ok: docs/slurm and docs/github-actions parse; {calls_seen} kbench commands use options kbench lists")


if __name__ == "__main__":
    main()
