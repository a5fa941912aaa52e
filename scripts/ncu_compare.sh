#!/usr/bin/env bash
# Checks kbench's hardware counters (--counters) against Nsight Compute on the same kernels.
# usage: scripts/ncu_compare.sh OUT_DIR   (kbench built in ./build; ncu on PATH or in its usual places)
# For each case: kbench --counters --json writes the counters of one call per row; then ncu profiles
# the same row's single launch under `kbench --profile` (the NVTX range "profile" inside the row's
# range), flushing caches first as kbench does, at the clocks kbench runs at, with exactly the
# metrics kbench collected. scripts/ncu_compare.py writes OUT_DIR/ncu-comparison.md: every metric
# of every kernel, kbench against ncu, and whether they agree within 5 %.
set -uo pipefail
out=${1:?usage: ncu_compare.sh OUT_DIR}
mkdir -p "$out"
kbench=build/kbench
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
[ -x "$ncu" ] || { echo "ncu_compare.sh: ncu not found" >&2; exit 2; }

# NCU_REPLAY=application replays the whole kbench process per metric pass instead of one kernel
# (ncu's default, which saves and restores device memory between passes); NCU_CASES="op ..."
# keeps only the cases of those ops.
# op, shape, dtype, variant: at least six kernels across the ops.
cases=(
  "add 4096x4096 fp32 blocked"
  "softmax 4096x4096 fp32 register_row"
  "softmax 4096x4096 fp32 manual"
  "sum_inner 4096x4096 fp32 row_parallel"
  "sum_inner 4096x4096 fp32 naive"
  "sum_full 4096x4096 fp32 naive_atomic"
  "matmul 4096x4096x4096 fp16 wgmma"
)
replay=${NCU_REPLAY:-kernel}
for entry in "${cases[@]}"; do
  read -r op shape dtype variant <<<"$entry"
  if [ -n "${NCU_CASES:-}" ] && [[ " $NCU_CASES " != *" $op "* ]]; then continue; fi
  tag="$op-$shape-$dtype-$variant"
  $kbench --op "$op" --shape "$shape" --dtype "$dtype" --variant "$variant" --no-references --counters \
    --modes cold --min-samples 5 --max-samples 5 --min-time-s 0 --json "$out/$tag.json" --force > "$out/$tag.txt" 2>&1
  metrics=$(python3 -c 'import json,sys
names=[]
for row in json.load(open(sys.argv[1]))["cases"]:
    for k in (row.get("hardware_counters") or {}).get("kernels", []):
        names += [m for m in k["metrics"] if m not in names]
print(",".join(names))' "$out/$tag.json")
  if [ -z "$metrics" ]; then echo "$tag: kbench collected no counters (see $out/$tag.txt)"; continue; fi
  "$ncu" --nvtx --nvtx-include "kbench@$op $variant $dtype $shape/profile/" --cache-control all --clock-control none \
    --replay-mode "$replay" --print-units base --csv --metrics "$metrics" \
    $kbench --op "$op" --shape "$shape" --dtype "$dtype" --variant "$variant" --no-references --profile \
    > "$out/ncu-$tag.csv" 2> "$out/ncu-$tag.log"
done
python3 "$(dirname "$0")/ncu_compare.py" "$out" > "$out/ncu-comparison.md"
cat "$out/ncu-comparison.md"
