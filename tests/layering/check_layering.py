#!/usr/bin/env python3
"""Checks the harness's layering rules (README, "Code layout") on the source tree.

1. A folder of harness/ includes headers only from the folders it may depend on (ALLOWED).
2. Reporters, judges, the results model, config input and common helpers reach no CUDA header,
   directly or through the headers they include.
3. Measurement prints nothing: it returns values, and the apps and reporters print them.

Usage: check_layering.py SOURCE_DIR. Prints one line per violation; exit 1 if any, else 0.
"""
import pathlib
import re
import sys

# folder -> the harness folders its files may include from.
ALLOWED = {
    "common": {"common"},
    "ops": {"common", "ops", "config", "device"},
    "config": {"common", "ops", "config", "results"},
    "results": {"common", "ops", "config", "device", "results"},
    "plan": {"common", "ops", "config", "device", "results", "plan"},  # results: a plan file's blocks in the results' form
    "device": {"common", "ops", "device"},
    "measure": {"common", "ops", "config", "device", "plan", "results", "measure"},
    "isolate": {"common", "ops", "config", "device", "plan", "results", "measure", "isolate"},
    "report": {"common", "ops", "config", "device", "results", "judge", "report"},
    "judge": {"common", "ops", "config", "device", "results", "report", "judge"},
}
CUDA_FREE = {"common", "config", "results", "report", "judge"}
CUDA_HEADER = re.compile(r'#\s*include\s*[<"](cuda|cublas|cudnn|cupti|nvtx|nvml|cub/|thrust/|cooperative_groups)')
PROJECT_INCLUDE = re.compile(r'#\s*include\s*"((?:harness|kbench)/[^"]+)"')
PRINTING = re.compile(r"\bstd::(cout|cerr|clog)\b|\b(printf|puts|fputs|fprintf)\s*\(|\bfmt::print\s*\(")


def main(source_dir: str) -> int:
    root = pathlib.Path(source_dir)
    harness = root / "harness"
    files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
             for p in harness.rglob("*") if p.suffix in {".hpp", ".cpp", ".cu", ".cuh", ".in"}}
    # The public API (include/kbench/): any folder may include it, and it is followed for CUDA.
    public = {"kbench/" + p.relative_to(root / "include" / "kbench").as_posix(): p.read_text(encoding="utf-8")
              for p in (root / "include" / "kbench").rglob("*.hpp")} if (root / "include" / "kbench").is_dir() else {}
    problems = []

    def folder(path: str) -> str:
        return path.split("/")[1] if path.count("/") >= 2 else ""

    harness_files = dict(files)
    files.update(public)
    for path, text in sorted(harness_files.items()):
        here = folder(path)
        if here not in ALLOWED:
            problems.append(f"{path}: harness/{here} is not a known subsystem folder (ALLOWED in {__file__})")
            continue
        for target in PROJECT_INCLUDE.findall(text):
            if target not in files:
                problems.append(f"{path}: includes {target}, which does not exist")
            elif target.startswith("harness/") and folder(target) not in ALLOWED[here]:
                problems.append(f"{path}: harness/{here} must not include {target} (harness/{folder(target)})")

    def reaches_cuda(path: str, seen: set) -> str:
        """The chain of includes from `path` to a CUDA header, or ''."""
        if path in seen:
            return ""
        seen.add(path)
        text = files.get(path, "")
        match = CUDA_HEADER.search(text)
        if match:
            return f"{path} -> <{match.group(1)}...>"
        for target in PROJECT_INCLUDE.findall(text):
            chain = reaches_cuda(target, seen)
            if chain:
                return f"{path} -> {chain}"
        return ""

    for path in sorted(harness_files):
        if folder(path) in CUDA_FREE:
            chain = reaches_cuda(path, set())
            if chain:
                problems.append(f"{path}: reaches a CUDA header: {chain}")

    for path, text in sorted(harness_files.items()):
        if folder(path) == "measure":
            for number, line in enumerate(text.splitlines(), 1):
                if PRINTING.search(line.split("//")[0]):
                    problems.append(f"{path}:{number}: measurement prints: {line.strip()}")

    for line in problems:
        print(line)
    print(f"layering: {len(harness_files)} harness files, {len(public)} public headers, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
