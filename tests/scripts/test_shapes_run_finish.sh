#!/usr/bin/env bash
# scripts/shapes_run.sh finish on the fixtures (hand-made results, not measurements): the stage that
# runs without a GPU writes the report, CSV, scoreboard and gate output from OUT's run.json and
# torch.json, and logs its stages' wall time. usage: test_shapes_run_finish.sh KBENCH_BINARY
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$root/tests/fixtures/run-pass.json" "$out/run.json"
cp "$root/tests/fixtures/torch.json" "$out/torch.json"
cd "$root"
KBENCH="$1" scripts/shapes_run.sh finish "$out" > "$out/finish.log" 2>&1
fail() { echo "FAIL: $*"; cat "$out/finish.log"; exit 1; }
for f in report.md run.csv scoreboard.md gate.txt; do [ -s "$out/$f" ] || fail "$f missing or empty"; done
for stage in plots report scoreboard; do grep -q "^$stage: [0-9]* s" "$out/walltime.txt" || fail "no '$stage' line in walltime.txt"; done
grep -q "^gate exit code: [0-9]" "$out/gate.txt" || fail "gate.txt has no exit code"
grep -q "Memory-bound cases" "$out/scoreboard.md" || fail "scoreboard.md has no count"
echo "shapes_run.sh finish: report, CSV, scoreboard and gate written"
