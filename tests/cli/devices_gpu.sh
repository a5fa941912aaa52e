#!/usr/bin/env bash
# Many GPUs and machines on one GPU (README): --devices 0 with the test plugin's broken variants
# (each broken row its own status, every other row passes), then two shards run one after the
# other and merged hold the same rows, with the same statuses, as the unsharded run.
# usage: devices_gpu.sh KBENCH PLUGIN PYTHON WORK_DIR
# Exit 77 (CTest: Skipped) with a line saying why when there is no CUDA device.
set -u
kbench=$1 plugin=$2 python=$3 work=$4
if ! device=$("$kbench" device 2>&1); then
  echo "SKIPPED: the --devices and shard test needs a CUDA device: $device"
  exit 77
fi
mkdir -p "$work"
quick=(--modes cold --min-samples 2 --max-samples 5 --min-time-s 0 --warmup-time-s 0 --no-kernel-breakdown)
fail() { echo "FAIL: $*"; exit 1; }

"$kbench" --plugin "$plugin" --op add --shape 4099 --shape 2048 --dtype fp32 --devices 0 --kernel-timeout 5 "${quick[@]}" \
  --json "$work/devices.json" --force >"$work/devices.out" 2>&1
code=$?
cat "$work/devices.out"
[ "$code" -eq 1 ] || fail "--devices 0 with broken variants: expected exit code 1, got $code"
grep -q "^Devices: each case runs in a worker process on one of 1 GPU (0)" "$work/devices.out" || fail "no Devices line"

sweep=(--op add --size small,large --dtype fp32,fp16 --seed 7 "${quick[@]}")
"$kbench" "${sweep[@]}" --shard 1/2 --json "$work/shard-1.json" --force >"$work/shard-1.out" 2>&1 || fail "shard 1/2: $(tail -3 "$work/shard-1.out")"
"$kbench" "${sweep[@]}" --shard 2/2 --json "$work/shard-2.json" --force >"$work/shard-2.out" 2>&1 || fail "shard 2/2: $(tail -3 "$work/shard-2.out")"
"$kbench" "${sweep[@]}" --json "$work/whole.json" --force >"$work/whole.out" 2>&1 || fail "unsharded: $(tail -3 "$work/whole.out")"
"$kbench" merge "$work/shard-2.json" "$work/shard-1.json" --json "$work/merged.json" --force || fail "merge"
"$kbench" gate "$work/merged.json" --thresholds "$(dirname "$0")/../fixtures/thresholds.json" >/dev/null
[ $? -le 1 ] || fail "gate could not read the merged file"

exec "$python" - "$work/devices.json" "$work/whole.json" "$work/merged.json" <<'PY'
import json, sys
devices, whole, merged = (json.load(open(path)) for path in sys.argv[1:])
problems = []
for row in devices["cases"]:
    broken = row["variant"] in ("faults_illegal_address", "hangs", "writes_past_end", "ignores_input")
    if row.get("source", "kbench") == "kbench" and row["status"] != "passed":
        problems.append(f"--devices 0: {row['variant']} {row['shape']}: {row['status']}: {row['message']}")
    if row["variant"] in ("faults_illegal_address", "hangs") and row["status"] != "error":
        problems.append(f"--devices 0: {row['variant']} is {row['status']}, expected error")
if "devices" in devices or devices["run_state"] != "complete":
    problems.append("--devices 0: expected one device and run_state complete")
key = lambda r: (r["op"], r["variant"], r["dtype"], tuple(r["shape"]), r["status"])
if sorted(map(key, whole["cases"])) != sorted(map(key, merged["cases"])):
    problems.append("merged shards and the unsharded run hold different rows or statuses")
if whole["plan"]["fingerprint"] != merged["plan"]["fingerprint"]:
    problems.append("merged shards and the unsharded run have different plan fingerprints")
for problem in problems:
    print("FAIL:", problem)
if problems:
    sys.exit(1)
print(f"ok: --devices 0 kept every kbench row of {len(devices['cases'])}; {len(merged['cases'])} merged rows match the unsharded run")
PY
