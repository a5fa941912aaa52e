#!/usr/bin/env bash
# Faults isolated (README, "Isolation"): one sweep of add with the test plugin's broken variants
# (tests/gpu_plugin/faulty_variants.cu) beside kbench's own. Isolation is on by default for plugin
# variants; each broken row gets its own status and every other row passes.
# usage: isolation_gpu.sh KBENCH PLUGIN PYTHON WORK_DIR
# Exit 77 (CTest: Skipped) with a line saying why when there is no CUDA device.
set -u
kbench=$1 plugin=$2 python=$3 work=$4
if ! device=$("$kbench" device 2>&1); then
  echo "SKIPPED: the isolation test needs a CUDA device: $device"
  exit 77
fi
mkdir -p "$work"
results="$work/isolation.json"
start=$(date +%s)
"$kbench" --plugin "$plugin" --op add --shape 4099 --dtype fp32 --kernel-timeout 5 \
  --modes cold --min-samples 2 --max-samples 2 --min-time-s 0 --warmup-time-s 0 --no-kernel-breakdown \
  --json "$results" --force >"$work/isolation.out" 2>&1
code=$?
cat "$work/isolation.out"
echo "exit code $code after $(( $(date +%s) - start )) s"
if [ "$code" -ne 1 ]; then echo "FAIL: expected exit code 1 (some rows ERROR or INCORRECT), got $code"; exit 1; fi
grep -q "^Isolated: each case runs in a worker process" "$work/isolation.out" ||
  { echo "FAIL: plugin variants did not turn isolation on"; exit 1; }
exec "$python" - "$results" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {row["variant"]: row for row in doc["cases"]}
expected = {
    "faults_illegal_address": ("error", "cudaErrorIllegalAddress"),
    "hangs": ("error", "timed out after 5 s"),
    "writes_past_end": ("incorrect", "outside output"),
    "ignores_input": ("incorrect", ""),
}
problems = []
if doc["run_state"] != "complete":
    problems.append(f"run_state is {doc['run_state']}, expected complete")
for name, (status, text) in expected.items():
    row = rows.get(name)
    if row is None:
        problems.append(f"no row for {name}")
    elif row["status"] != status or text not in row["message"]:
        problems.append(f"{name}: {row['status']} '{row['message']}'; expected {status} with '{text}'")
others = [name for name in rows if name not in expected]
if "plugin_add" not in others or len(others) < 3:
    problems.append(f"too few good rows: {others}")
for name in others:
    if rows[name]["status"] != "passed":
        problems.append(f"{name}: {rows[name]['status']} '{rows[name]['message']}'; expected passed")
for line in problems:
    print("FAIL:", line)
if not problems:
    print(f"ok: {len(expected)} broken rows with their statuses, {len(others)} others passed: {', '.join(others)}")
sys.exit(1 if problems else 0)
PY
