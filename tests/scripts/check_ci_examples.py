#!/usr/bin/env python3
"""Checks the CI examples under docs/ (README, "How the gate decides"): each parses as YAML, has
the shape its CI system expects (GitHub Actions: jobs with runs-on and steps that each run or use
something; GitLab CI: jobs with a stage and a script) and runs `kbench gate`; each of the two
systems has an example that gates with --history; and every kbench
command it runs names a subcommand and options that this kbench's --help lists.

usage: check_ci_examples.py KBENCH FILE...   (exit 0 pass, 1 a finding, 77 skipped: no PyYAML
outside CI; on CI, CI=true, a missing PyYAML fails instead: scripts/setup.sh installs it)"""
import os
import re
import subprocess
import sys

SUBCOMMANDS = ("gate", "report", "compare", "device", "list")
# `build/kbench` and its arguments, up to a shell operator or the end of the line.
COMMAND = re.compile(r"build/kbench((?:[ \t]+[^\s|;&<>()]+)*)")


def help_text(kbench, subcommand):
    args = [kbench] + ([subcommand] if subcommand else []) + ["--help"]
    return subprocess.run(args, capture_output=True, text=True, check=False).stdout


def commands_in(text):
    """[(subcommand or None, [options])] of every kbench command line in a shell script."""
    found = []
    for match in COMMAND.finditer(text):
        tokens = match.group(1).split()
        subcommand = tokens[0] if tokens and tokens[0] in SUBCOMMANDS else None
        options = [t.split("=", 1)[0] for t in tokens if t.startswith("--")]
        found.append((subcommand, options))
    return found


def scripts_of_github(doc, problems):
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        problems.append("no jobs")
        return []
    if "on" not in doc and True not in doc:  # YAML 1.1 reads a bare `on` key as true
        problems.append("no `on` triggers")
    scripts = []
    for name, job in jobs.items():
        if "runs-on" not in job:
            problems.append(f"job {name}: no runs-on")
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            problems.append(f"job {name}: no steps")
            continue
        for i, step in enumerate(steps):
            if not isinstance(step, dict) or not ("run" in step or "uses" in step):
                problems.append(f"job {name}, step {i}: neither run nor uses")
            elif "run" in step:
                scripts.append(step["run"])
    return scripts


def scripts_of_gitlab(doc, problems):
    stages = doc.get("stages", ["build", "test", "deploy"])
    jobs = {k: v for k, v in doc.items() if isinstance(v, dict) and "script" in v}
    if not jobs:
        problems.append("no job with a script")
    scripts = []
    for name, job in jobs.items():
        if job.get("stage", "test") not in stages:
            problems.append(f"job {name}: stage {job.get('stage')!r} is not in stages {stages}")
        if not isinstance(job["script"], list) or not all(isinstance(line, str) for line in job["script"]):
            problems.append(f"job {name}: script is not a list of strings")
            continue
        scripts.extend(job["script"])
    return scripts


def check(kbench, path, yaml, history_systems):
    """The problems of one file; adds its CI system to `history_systems` when it gates with --history."""
    problems = []
    with open(path) as f:
        try:
            doc = yaml.safe_load(f)
        except yaml.YAMLError as error:
            return [f"not valid YAML: {error}"]
    if not isinstance(doc, dict):
        return ["not a YAML mapping"]
    github = "jobs" in doc
    scripts = scripts_of_github(doc, problems) if github else scripts_of_gitlab(doc, problems)
    commands = [c for script in scripts for c in commands_in(script)]
    if not any(sub == "gate" for sub, _ in commands):
        problems.append("no `kbench gate` command")
    if any(sub == "gate" and "--history" in options for sub, options in commands):
        history_systems.add("GitHub Actions" if github else "GitLab CI")
    helps = {}
    for subcommand, options in commands:
        text = helps.setdefault(subcommand, help_text(kbench, subcommand))
        if not text:
            problems.append(f"`kbench {subcommand or ''} --help` printed nothing")
            continue
        for option in options:
            if not re.search(re.escape(option) + r"(?![\w-])", text):
                problems.append(f"`kbench {subcommand or ''}`: option {option} is not in its --help")
    return problems


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import yaml
    except ImportError:
        message = f"PyYAML is not installed for {sys.executable} (scripts/setup.sh installs it)"
        if os.environ.get("CI") == "true":
            print(f"check_ci_examples: error: {message}; on CI this fails instead of skipping", file=sys.stderr)
            return 1
        print(f"check_ci_examples: skipped: {message}")
        return 77
    failed = False
    history_systems = set()
    for path in argv[2:]:
        problems = check(argv[1], path, yaml, history_systems)
        for problem in problems:
            print(f"{path}: {problem}")
        print(f"{path}: {'FAIL' if problems else 'ok'}")
        failed = failed or bool(problems)
    for system in ("GitHub Actions", "GitLab CI"):
        if system not in history_systems:
            print(f"no {system} example gates with `kbench gate ... --history`")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
