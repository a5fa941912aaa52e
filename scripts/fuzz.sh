#!/usr/bin/env bash
# Fuzzes kbench's input loaders: builds the libFuzzer targets of tests/fuzz/ (clang++ with
# -fsanitize=fuzzer,address,undefined; a build of its own in ./build-fuzz, no CUDA compiler) and
# runs each for SECONDS (default 60) from its seed corpus and kept regressions.
#   fuzz_sweep_config: bytes as a sweep config, through parsing and planning
#   fuzz_results:      bytes as a results file, through loading, reports, compare and gate
# A crash, a sanitizer report, a leak, a hang (10 s per input) or an exception other than
# kbench's InputError stops that target; the input is left in build-fuzz/findings/TARGET/ and the
# script exits 1. Fix the bug, then keep the input in tests/fuzz/regressions/TARGET/, where the
# host tests replay it. Inputs that reach new code go to build-fuzz/corpus/TARGET/ (not kept).
#
# Needs clang++ and its fuzzer runtime (Debian 12: apt-get install clang libclang-rt-14-dev),
# plus kbench's usual build dependencies (scripts/setup.sh). CLANGXX picks another clang++.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
case $seconds in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS per target, default 60]" >&2; exit 2 ;; esac
clang=${CLANGXX:-clang++}
if ! command -v "$clang" >/dev/null 2>&1; then
  echo "fuzz: error: $clang not found; install clang and libclang-rt-14-dev (Debian 12) or set CLANGXX" >&2
  exit 1
fi
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
    "$clang" -x c++ -fsanitize=fuzzer - -o /dev/null >/dev/null 2>&1; then
  echo "fuzz: error: $clang cannot link libFuzzer; install its runtime (Debian 12: libclang-rt-14-dev)" >&2
  exit 1
fi

cmake -S tests/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER="$clang"
cmake --build build-fuzz -j "$(nproc)"

failed=()
for target in fuzz_sweep_config fuzz_results; do
  work=build-fuzz/corpus/$target
  findings=build-fuzz/findings/$target
  mkdir -p "$work" "$findings"
  seeds=(tests/fuzz/corpus/$target)
  [ -d tests/fuzz/regressions/$target ] && seeds+=(tests/fuzz/regressions/$target)
  echo "fuzz: $target for $seconds s"
  if ! build-fuzz/$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -dict=tests/fuzz/$target.dict -artifact_prefix="$findings/" "$work" "${seeds[@]}"; then
    failed+=("$target")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}; the inputs are in build-fuzz/findings/" >&2
  exit 1
fi
echo "fuzz: no findings"
