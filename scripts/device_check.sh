#!/usr/bin/env bash
# One call on a lent GPU machine, in stages. Logs and results are written under a work folder,
# then packed into $OUT/device-check.tgz (or ./device-out/...), one file whatever their number.
# usage: scripts/device_check.sh STAGE...   stages, in the order given:
#   build     install what is missing, build Release for sm_90 into ./build
#   tests     every CTest test (GPU tests included)
#   main      the README's main job (add, large) and the add sweep over every size class
#   tables    kbench --op OP --size all for every op family (TABLE_OPS: which, default all four)
#   sanitize  compute-sanitizer memcheck and racecheck over the GPU tests
#   targets   kbench --config configs/targets.json (the kernel targets' rows), results JSON kept
#   validate  timings against Nsight Compute, and repeatability over five processes
#             (VALIDATE_SECTIONS: which of kernels, graph, floor, repeat; default all)
#   profilers kernel breakdowns (CUPTI) of manual vs fused GELU and softmax; ncu selecting one
#             case's kernels by its NVTX range
set -uo pipefail
cd "$(dirname "$0")/.."
pack_dir=${OUT:-device-out}
out=$(mktemp -d)
mkdir -p "$pack_dir"
trap 'tar czf "$pack_dir/device-check.tgz" -C "$out" . && rm -rf "$out"' EXIT
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
  return 0
}

stage_main() {
  /usr/bin/time -f "main job wall time: %e s" $kbench --op add --size large --json "$out/add-large.json" --force \
    > "$out/add-large.txt" 2> "$out/add-large.progress"
  tail -n 1 "$out/add-large.progress"
  $kbench --op add --size all --json "$out/add-all.json" --force > "$out/add-all.txt" 2> "$out/add-all.progress"
  echo "add --size all: exit $?"
}

stage_tables() {
  for op in ${TABLE_OPS:-sum softmax gelu matmul}; do
    local dtypes=fp32
    [ "$op" = matmul ] && dtypes=all
    /usr/bin/time -f "$op --size all --dtype $dtypes: %e s" $kbench --op "$op" --size all --dtype "$dtypes" \
      --json "$out/$op-all.json" --force > "$out/$op-all.txt" 2> "$out/$op-all.progress"
    echo "$op: exit $?; $(tail -n 1 "$out/$op-all.progress")"
  done
}

stage_sanitize() {
  # Test case by test case, each with its own time limit, so that one slow case under the
  # sanitizer's instrumentation leaves the others' summaries intact.
  local sanitizer tests=build/tests/kbench_gpu_tests
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -n 1)
  mapfile -t cases < <($tests "[gpu]" --list-tests --verbosity quiet 2>/dev/null || $tests "[gpu]" --list-test-names-only)
  # SANITIZER_CASES: an extended regular expression that narrows the test cases by name.
  [ -n "${SANITIZER_CASES:-}" ] && mapfile -t cases < <(printf '%s\n' "${cases[@]}" | grep -E "$SANITIZER_CASES")
  for tool in ${SANITIZER_TOOLS:-memcheck racecheck}; do
    local log="$out/sanitizer-$tool.log" clean=0 dirty=0 timed_out=0
    # The odd shapes of every test plus the small (racecheck) or small and medium (memcheck) size
    # classes: the full-size checks take minutes under the instrumentation.
    local classes=small,medium skip=
    # racecheck leaves out the sum_outer baseline, cublas_gemv: vendor code whose nvjet kernels
    # racecheck reported hazards in (and, excluded by kernel name, failed on with an internal
    # error); every kbench kernel is checked.
    [ "$tool" = racecheck ] && classes=small && skip=cublas_gemv
    : > "$log"
    for name in "${cases[@]}"; do
      [ -n "$name" ] || continue
      echo "### $name" >> "$log"
      # Catch2 reads commas in a test spec as "or": escape them to select this one case.
      KBENCH_TEST_SIZE_CLASSES=${SANITIZER_SIZE_CLASSES:-$classes} KBENCH_TEST_SKIP_VARIANTS=$skip \
        timeout "${SANITIZER_CASE_LIMIT_S:-90}" "$sanitizer" --tool "$tool" --error-exitcode 9 $tests "${name//,/\\,}" \
        >> "$log" 2>&1
      case $? in
        0) clean=$((clean + 1)) ;;
        124) timed_out=$((timed_out + 1)); echo "### TIMED OUT: $name" >> "$log" ;;
        *) dirty=$((dirty + 1)); echo "### FAILED: $name" >> "$log" ;;
      esac
    done
    echo "compute-sanitizer --tool $tool (size classes ${SANITIZER_SIZE_CLASSES:-$classes}; variants left out: ${skip:-none}): ${#cases[@]} test cases:" \
      "$clean clean, $dirty with errors, $timed_out over the time limit"
    grep -E "^### (FAILED|TIMED OUT)" "$log" | head -20
    grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | sort | uniq -c
  done
}

stage_profilers() {
  $kbench --op gelu_tanh,gelu_erf,softmax --shape 4096x4096 --kernels --json "$out/breakdown.json" --force \
    > "$out/breakdown.txt" 2>&1
  echo "breakdown run: exit $?"
  sed -n '/kernel breakdown (CUPTI/,/^$/p' "$out/breakdown.txt" | cut -c1-220
  local ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
  # Under ncu, CUPTI's activity API is taken: kbench must say so once and go on.
  for range in "kbench@softmax manual fp32 1024x1024/" "kbench@softmax manual fp32 1024x1024/profile/"; do
    echo "-- ncu --nvtx --nvtx-include \"$range\""
    "$ncu" --nvtx --nvtx-include "$range" --metrics gpu__time_duration.sum --csv \
      $kbench --op softmax --shape 1024x1024 --variant manual,fused --profile > "$out/ncu-nvtx.csv" 2> "$out/ncu-nvtx.err"
    echo "ncu exit $?: $(grep -c '"gpu__time_duration.sum"' "$out/ncu-nvtx.csv") kernels profiled:"
    grep '"gpu__time_duration.sum"' "$out/ncu-nvtx.csv" | awk -F'","' '{print "   " $5}' | cut -c1-90 | sort | uniq -c
  done
  "$ncu" --metrics gpu__time_duration.sum $kbench --op add --shape 65536 --variant vectorized --modes eager \
    --min-samples 20 --max-samples 20 > "$out/ncu-cupti.txt" 2>&1
  echo "kbench under ncu: $(grep -E '^NOTE' "$out/ncu-cupti.txt" | head -2)"
  return 0
}

stage_targets() {
  /usr/bin/time -f "targets.json wall time: %e s" $kbench --config configs/targets.json --json "$out/targets.json" \
    --force > "$out/targets.txt" 2> "$out/targets.progress"
  echo "targets: exit $?; $(tail -n 1 "$out/targets.progress")"
  # The same cases in PyTorch (eager), for the report's "vs PyTorch" column: kbenchpy on kbench's plan.
  PYTHONUNBUFFERED=1 PYTHONPATH=python /usr/bin/time -f "torch baseline wall time: %e s" python3 -m kbenchpy torch \
    --config configs/targets.json --kbench "$kbench" --json "$out/targets-torch.json" --force \
    > "$out/targets-torch.txt" 2>&1
  echo "torch baseline: exit $?; $(tail -n 1 "$out/targets-torch.txt")"
}

stage_validate() {
  # shellcheck disable=SC2086 # the sections are words
  scripts/validate_measurement.sh "$out/validate" ${VALIDATE_SECTIONS:-} 2>&1 | tee "$out/validate.txt"
}

[ $# -gt 0 ] || { echo "usage: scripts/device_check.sh build|tests|main|tables|sanitize|targets|validate|profilers ..." >&2; exit 2; }
for stage in "$@"; do
  echo "== $stage"
  "stage_$stage" || echo "stage $stage failed"
done
