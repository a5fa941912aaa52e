#!/usr/bin/env bash
# One call on a lent GPU machine, in stages, writing logs and results under $OUT (or ./device-out).
# usage: scripts/device_check.sh STAGE...   stages, in the order given:
#   build     install what is missing, build Release for sm_90 into ./build
#   tests     every CTest test (GPU tests included)
#   main      the README's main job (add, large) and the add sweep over every size class
#   tables    kbench --op OP --size all for every op family
#   sanitize  compute-sanitizer memcheck and racecheck over the GPU tests
#   validate  timings against Nsight Compute, and repeatability over five processes
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
kbench=build/kbench

stage_build() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,persistence_mode \
    --format=csv | tee "$out/nvidia-smi.txt"
  scripts/setup.sh > "$out/setup.log" 2>&1 || { tail -20 "$out/setup.log"; return 1; }
  /usr/bin/time -f "build wall time: %e s" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
    > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; return 1; }
  tail -n 1 "$out/build.log"
}

stage_tests() {
  ctest --test-dir build --output-on-failure --verbose > "$out/ctest.log" 2>&1
  grep -E "tests passed|tests failed|\*\*\*Skipped|\(Failed\)|All tests passed|test cases:" "$out/ctest.log" | tail -12
  grep -B3 -A14 "FAILED:" "$out/ctest.log" | head -80
}

stage_main() {
  /usr/bin/time -f "main job wall time: %e s" $kbench --op add --size large --json "$out/add-large.json" --force \
    > "$out/add-large.txt" 2> "$out/add-large.progress"
  tail -n 1 "$out/add-large.progress"
  $kbench --op add --size all --json "$out/add-all.json" --force > "$out/add-all.txt" 2> "$out/add-all.progress"
  echo "add --size all: exit $?"
}

stage_tables() {
  for op in sum softmax gelu matmul; do
    local dtypes=fp32
    [ "$op" = matmul ] && dtypes=all
    /usr/bin/time -f "$op --size all --dtype $dtypes: %e s" $kbench --op "$op" --size all --dtype "$dtypes" \
      --json "$out/$op-all.json" --force > "$out/$op-all.txt" 2> "$out/$op-all.progress"
    echo "$op: exit $?; $(tail -n 1 "$out/$op-all.progress")"
  done
}

stage_sanitize() {
  local sanitizer
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -n 1)
  for tool in memcheck racecheck; do
    timeout 280 "$sanitizer" --tool "$tool" --error-exitcode 9 build/tests/kbench_gpu_tests "[gpu]" \
      > "$out/sanitizer-$tool.log" 2>&1
    echo "compute-sanitizer --tool $tool: exit $?"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test cases" "$out/sanitizer-$tool.log" | tail -3
  done
}

stage_validate() {
  scripts/validate_measurement.sh "$out/validate" 2>&1 | tee "$out/validate.txt"
}

[ $# -gt 0 ] || { echo "usage: scripts/device_check.sh build|tests|main|tables|sanitize|validate ..." >&2; exit 2; }
for stage in "$@"; do
  echo "== $stage"
  "stage_$stage" || echo "stage $stage failed"
done
