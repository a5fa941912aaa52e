#!/usr/bin/env bash
# Checks kbench's timings against Nsight Compute and itself, on a GPU machine with ncu.
# usage: scripts/validate_measurement.sh OUT_DIR [SECTION...]   (kbench built in ./build)
# sections: kernels (ncu per kernel vs cold and hot), graph (ncu per graph vs hot), floor (ncu at
# 1 element), repeat (five processes); default all four.
set -uo pipefail
out=${1:?usage: validate_measurement.sh OUT_DIR}
shift
sections=${*:-kernels graph floor repeat}
mkdir -p "$out"
kbench=build/kbench
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)

section_kernels() {
echo "== Nsight Compute gpu__time_duration vs kbench (fp32): add and softmax at 64K, 4M and 64M elements"
# op, shape, variant, ncu kernel filter
cases=(
  "add 65536 vectorized add_vectorized_kernel"
  "add 65536 cub_transform regex:.*transform.*"
  "add 4194304 vectorized add_vectorized_kernel"
  "add 4194304 cub_transform regex:.*transform.*"
  "add 67108864 vectorized add_vectorized_kernel"
  "add 67108864 cub_transform regex:.*transform.*"
  "softmax 256x256 online regex:softmax_online"
  "softmax 2048x2048 online regex:softmax_online"
  "softmax 8192x8192 online regex:softmax_online"
)
for entry in "${cases[@]}"; do
  read -r op shape variant kernel <<<"$entry"
  tag="$op-$shape-$variant"
  $kbench --op "$op" --shape "$shape" --variant "$variant" --no-references --json "$out/$tag.json" --force > "$out/$tag.txt" 2>&1
  for cache in all none; do
    # ncu flushes caches before each profiled kernel with --cache-control all (cold), not with none (warm).
    "$ncu" --clock-control none --cache-control $cache --kernel-name "$kernel" --launch-skip 20 --launch-count 20 \
      --metrics gpu__time_duration.sum --csv $kbench --op "$op" --shape "$shape" --variant "$variant" --no-references \
      --modes eager --min-samples 40 --max-samples 40 > "$out/ncu-$tag-$cache.csv" 2>/dev/null
  done
  python3 - "$out" "$tag" "$variant" <<'PY'
import csv, json, statistics, sys
out, tag, variant = sys.argv[1:]
def ncu_median_us(cache):
    values = []
    with open(f"{out}/ncu-{tag}-{cache}.csv") as f:
        rows = [line for line in f if line.startswith('"')]
    for row in csv.DictReader(rows):
        if row.get("Metric Name") == "gpu__time_duration.sum":
            scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}.get(
                row["Metric Unit"], float("nan"))
            values.append(float(row["Metric Value"].replace(",", "")) * scale)
    return statistics.median(values) if values else float("nan"), len(values)
doc = json.load(open(f"{out}/{tag}.json"))
case = next(c for c in doc["cases"] if c["variant"] == variant)
modes = {t["mode"]: t["stats"]["median_ms"] * 1e3 for t in case["timings"]}
cold_ncu, k1 = ncu_median_us("all")
hot_ncu, k2 = ncu_median_us("none")
print(f"{tag:<36} ncu cold {cold_ncu:9.2f} us (x{k1})  kbench cold {modes['cold']:9.2f} us "
      f"({100 * (modes['cold'] / cold_ncu - 1):+6.1f}%) | ncu warm {hot_ncu:9.2f} us (x{k2})  kbench hot {modes['hot']:9.2f} us "
      f"({100 * (modes['hot'] / hot_ncu - 1):+6.1f}%)  eager {modes['eager']:8.2f} us")
PY
done
}

# Hot mode is a CUDA graph of N back-to-back calls replayed between two events, time / N. Nsight
# Compute's per-kernel time isolates one launch (its ramp and drain included), so the like-for-like
# check is ncu timing the same graph as one workload: kbench --profile --profile-calls N replays
# it once inside its NVTX 'profile' range, and ncu --graph-profiling graph times that replay.
section_graph() {
echo "== Nsight Compute, whole-graph gpu__time_duration / N vs kbench hot mode (fp32)"
local graph_cases=(
  "add 65536 vectorized"
  "add 65536 blocked"
  "add 4194304 vectorized"
  "add 67108864 vectorized"
  "softmax 256x256 online"
  "softmax 8192x8192 online"
)
for entry in "${graph_cases[@]}"; do
  read -r op shape variant <<<"$entry"
  tag="graph-$op-$shape-$variant"
  $kbench --op "$op" --shape "$shape" --variant "$variant" --no-references --modes hot --json "$out/$tag.json" --force \
    > "$out/$tag.txt" 2>&1
  calls=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['cases'][0]['timings'][0]['calls_per_sample'])" \
    "$out/$tag.json")
  label=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cases'][0]; print(c['op'], c['variant'], c['dtype'], 'x'.join(map(str, c['shape'])))" \
    "$out/$tag.json")
  "$ncu" --graph-profiling graph --nvtx --nvtx-include "kbench@$label/profile/" --clock-control none --cache-control none \
    --metrics gpu__time_duration.sum --csv $kbench --op "$op" --shape "$shape" --variant "$variant" --no-references \
    --profile --profile-calls "$calls" > "$out/ncu-$tag.csv" 2> "$out/ncu-$tag.err"
  python3 - "$out" "$tag" "$calls" <<'PY'
import csv, json, sys
out, tag, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [line for line in open(f"{out}/ncu-{tag}.csv") if line.startswith('"')]
values = []
for row in csv.DictReader(rows):
    if row.get("Metric Name") == "gpu__time_duration.sum":
        scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}.get(
            row["Metric Unit"], float("nan"))
        values.append(float(row["Metric Value"].replace(",", "")) * scale)
hot = json.load(open(f"{out}/{tag}.json"))["cases"][0]["timings"][0]["stats"]["median_ms"] * 1e3
if len(values) != 1:
    print(f"{tag:<40} ncu returned {len(values)} graph results (expected 1): see ncu-{tag}.csv / .err")
else:
    per_call = values[0] / calls
    print(f"{tag:<40} ncu graph {values[0]:10.2f} us / {calls} = {per_call:8.3f} us per call   "
          f"kbench hot {hot:8.3f} us ({100 * (hot / per_call - 1):+5.1f}%)")
PY
done
}

# ncu's floor: the same kernel at 1 element (nothing to move) and at 64K. If ncu's duration of an
# all-but-empty launch is already well above kbench's hot figure and CUPTI's timestamps, the gap
# at 64K is ncu's per-launch cost, not the kernel's. gpc__cycles_elapsed gives the cycles and the
# clock ncu saw, to tell a slower clock from more cycles.
section_floor() {
echo "== ncu floor: add vectorized fp32 at 1 and 65536 elements (ncu warm, kbench hot, CUPTI kernel time)"
for shape in 1 1024 65536; do
  tag="floor-add-$shape"
  $kbench --op add --shape "$shape" --variant vectorized --no-references --modes hot,eager --json "$out/$tag.json" \
    --force > "$out/$tag.txt" 2>&1
  "$ncu" --clock-control none --cache-control none --kernel-name add_vectorized_kernel --launch-skip 20 \
    --launch-count 20 --metrics gpu__time_duration.sum,gpc__cycles_elapsed.max,gpc__cycles_elapsed.avg.per_second \
    --csv $kbench --op add --shape "$shape" --variant vectorized --no-references --modes eager --min-samples 40 \
    --max-samples 40 > "$out/ncu-$tag.csv" 2>/dev/null
  python3 - "$out" "$tag" <<'PY'
import csv, json, statistics, sys
out, tag = sys.argv[1:]
rows = [line for line in open(f"{out}/ncu-{tag}.csv") if line.startswith('"')]
metrics = {}
for row in csv.DictReader(rows):
    value = float(row["Metric Value"].replace(",", ""))
    unit = row["Metric Unit"]
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3,
             "cycle/nsecond": 1e3, "cycle/usecond": 1.0, "Ghz": 1e3, "Mhz": 1.0, "hz": 1e-6}.get(unit, 1.0)
    metrics.setdefault(row["Metric Name"], []).append(value * scale)
case = json.load(open(f"{out}/{tag}.json"))["cases"][0]
modes = {t["mode"]: t["stats"]["median_ms"] * 1e3 for t in case["timings"]}
cupti = case.get("kernel_breakdown", {}).get("gpu_ms_per_call", float("nan")) * 1e3
med = lambda name: statistics.median(metrics[name]) if name in metrics else float("nan")
print(f"{tag:<18} ncu {med('gpu__time_duration.sum'):6.2f} us ({med('gpc__cycles_elapsed.max'):7.0f} cycles at "
      f"{med('gpc__cycles_elapsed.avg.per_second'):6.0f} MHz)  kbench hot {modes.get('hot', float('nan')):6.2f} us  "
      f"eager {modes.get('eager', float('nan')):6.2f} us  CUPTI {cupti:6.2f} us")
PY
done
}

section_repeat() {
echo "== Repeatability: five processes of kbench --op add --size all"
for i in 1 2 3 4 5; do
  $kbench --op add --size all --json "$out/repeat-$i.json" --force > "$out/repeat-$i.txt" 2>&1
done
python3 scripts/repeatability.py "$out"/repeat-*.json > "$out/repeatability.txt"
grep -E "4096x4096|8192x8192|16x1024x1024|worst" "$out/repeatability.txt"
python3 scripts/repeatability.py "$out"/repeat-*.json --classes large,xlarge | tail -n 1
}

for section in $sections; do "section_$section"; done
