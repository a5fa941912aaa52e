#!/usr/bin/env bash
# A/B of the timed path: kbench built from an earlier tree (a tarball of `git archive`) against
# this tree's build/kbench, in eager mode (host launch overhead included) at small shapes, the two
# binaries alternating ROUNDS times so that drift hits both alike. Needs a GPU.
# usage: scripts/ab_eager.sh BEFORE.tgz OUT_DIR [kbench options, default: add and softmax at 256x256]
set -euo pipefail
cd "$(dirname "$0")/.."
before_tgz=$1 out=$2
shift 2
[ $# -gt 0 ] || set -- --op add,softmax --shape 256x256 --dtype fp32,fp16
rounds=${ROUNDS:-3}
mkdir -p "$out" /tmp/ab-before
tar xzf "$before_tgz" -C /tmp/ab-before
cmake -S /tmp/ab-before -B /tmp/ab-before/build -DCMAKE_CUDA_ARCHITECTURES=90 -DKBENCH_BUILD_TESTS=OFF > "$out/before-build.log" 2>&1
cmake --build /tmp/ab-before/build -j "$(nproc)" --target kbench >> "$out/before-build.log" 2>&1
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    binary=build/kbench
    [ "$side" = before ] && binary=/tmp/ab-before/build/kbench
    "$binary" "$@" --modes eager --no-references --json "$out/$side-$round.json" --force > "$out/$side-$round.txt" 2>&1
  done
  build/kbench compare "$out/before-$round.json" "$out/after-$round.json" | tee "$out/compare-$round.txt"
done
