#!/usr/bin/env bash
# --repeat and the samples kept by default (README, "How the gate decides"), on a GPU: add with
# the test plugin's delayed_add at 1 Mi elements in cold and hot mode, each case in 3 worker
# processes. Every timed row must pool 3 processes' samples; the cold (headline) timing keeps
# them (--keep-samples 2, the default), the hot one none; then a second run with delayed_add
# slowed by half its median compares SLOWER by the samples rule.
# usage: repeat_gpu.sh KBENCH PLUGIN PYTHON WORK_DIR
# Exit 77 (CTest: Skipped) with a line saying why when there is no CUDA device.
set -u
kbench=$1 plugin=$2 python=$3 work=$4
if ! device=$("$kbench" device 2>&1); then
  echo "SKIPPED: the --repeat test needs a CUDA device: $device"
  exit 77
fi
mkdir -p "$work"
run() {  # JSON DELAY_NS
  KBENCH_TEST_DELAY_NS=$2 "$kbench" --plugin "$plugin" --op add --variant vectorized,delayed_add --shape 1048576 \
    --dtype fp32 --modes cold,hot --min-samples 30 --max-samples 30 --min-time-s 0 --no-kernel-breakdown --repeat 3 \
    --json "$1" --force >"$1.out" 2>&1
  local code=$?
  cat "$1.out"
  if [ "$code" -ne 0 ]; then echo "FAIL: exit code $code"; exit 1; fi
}
run "$work/base.json" 0
grep -q "^Repeated: each case runs in 3 worker processes" "$work/base.json.out" || { echo "FAIL: no --repeat line"; exit 1; }
"$python" - "$work/base.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
problems = []
for row in doc["cases"]:
    if row["status"] != "passed":
        problems.append(f"{row['variant']}: {row['status']} {row['message']}")
        continue
    for t in row["timings"]:
        where = f"{row['variant']} {t['mode']}"
        if t.get("processes") != 3:
            problems.append(f"{where}: processes {t.get('processes')}, expected 3")
        if t["stats"]["count"] != 90 and t["mode"] == "cold":
            problems.append(f"{where}: {t['stats']['count']} samples, expected 3 x 30")
        kept = len(t["samples_ms"])
        if t["mode"] == "cold" and kept != t["stats"]["count"]:
            problems.append(f"{where}: {kept} samples kept of {t['stats']['count']}")
        if t["mode"] == "hot" and kept:
            problems.append(f"{where}: kept {kept} samples; only the headline mode's are kept by default")
print("\n".join(problems) or "every row pools 3 processes; cold keeps its samples, hot none")
sys.exit(1 if problems else 0)
PY
median_ns=$("$python" -c "import json,sys; d=json.load(open(sys.argv[1])); print(int([r for r in d['cases'] if r['variant']=='delayed_add'][0]['timings'][0]['stats']['median_ms']*1e6/2))" "$work/base.json")
run "$work/slow.json" "$median_ns"
"$kbench" compare "$work/base.json" "$work/slow.json" | tee "$work/compare.txt"
grep -q "delayed_add.*SLOWER.*samples" "$work/compare.txt" || { echo "FAIL: a delay of half the median was not SLOWER by the samples rule"; exit 1; }
grep -q "add vectorized.*samples" "$work/compare.txt" || { echo "FAIL: vectorized not judged by samples"; exit 1; }
echo "PASS"
