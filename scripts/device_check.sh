#!/usr/bin/env bash
# One call on a lent GPU machine: build, run every test (GPU tests included), then the main job
# and the full add sweep, writing logs and results under $OUT (or ./device-out).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$out/nvidia-smi.txt"
scripts/setup.sh
scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
ctest --test-dir build --output-on-failure 2>&1 | tee "$out/ctest.log" | tail -25
build/kbench device
build/kbench --op add --size large --json "$out/add-large.json" 2>"$out/add-large.progress"
build/kbench --op add --size all --dtype all --json "$out/add-all.json" 2>"$out/add-all.progress"
