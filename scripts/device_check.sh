#!/usr/bin/env bash
# One call on a lent GPU machine: build, run every test (GPU tests included), then the main job
# and the full add sweep, writing logs and results under $OUT (or ./device-out).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,persistence_mode --format=csv | tee "$out/nvidia-smi.txt"
scripts/setup.sh
scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
ctest --test-dir build --output-on-failure --verbose > "$out/ctest.log" 2>&1
grep -E "tests passed|Failed|FAILED|test cases|assertions" "$out/ctest.log" | tail -8
grep -B3 -A14 "FAILED:" "$out/ctest.log" | head -120
/usr/bin/time -f "main job wall time: %e s" build/kbench --op add --size large --json "$out/add-large.json" > "$out/add-large.txt" 2>"$out/add-large.progress"
tail -n 1 "$out/add-large.progress"
build/kbench --op add --size all --dtype all --json "$out/add-all.json" > "$out/add-all.txt" 2>"$out/add-all.progress"
