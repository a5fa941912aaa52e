#!/usr/bin/env bash
# The plugin showcase on a GPU, as a user would do it: install kbench, build examples/plugin
# against the install alone, run its softmax variant beside kbench's own softmax variants and its
# rmsnorm op, and write the report; then the README's kernel file timed end to end (the first
# call compiles it, the second finds it in the cache). Needs a GPU and a Release build in ./build.
# usage: scripts/plugin_run.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
prefix=/tmp/kbench-install example=/tmp/kbench-example
cmake --install build --prefix "$prefix" > "$out/install.log"
cmake -S examples/plugin -B "$example" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES=90 > "$out/example.log"
cmake --build "$example" -j "$(nproc)" >> "$out/example.log"
plugin=$example/libkbench_example.so

/usr/bin/time -f "plugin sweep: %e s wall" "$prefix/bin/kbench" --plugin "$plugin" --op softmax,rmsnorm \
  --shape 4096x4096 --shape 8192x8192 --shape 32768x512 --shape 1024x32768 --dtype all \
  --json "$out/run.json" > "$out/run.txt" 2> "$out/run.progress" || echo "plugin sweep: exit $?"
tail -n 1 "$out/run.progress"
"$prefix/bin/kbench" report "$out/run.json" --md "$out/report.md" --csv "$out/run.csv"

# The README's kernel file, extracted from its code block, in a fresh cache.
sed -n '/^\/\/ my_softmax.cu/,/^```$/p' README.md | sed '$d' > /tmp/my_softmax.cu
export XDG_CACHE_HOME=/tmp/kbench-cache
rm -rf "$XDG_CACHE_HOME"
for call in first second; do
  /usr/bin/time -f "kernel file, $call call: %e s wall" "$prefix/bin/kbench" --kernel-file /tmp/my_softmax.cu \
    --op softmax --variant my_softmax --dtype fp32 --shape 4096x4096 > "$out/kernel-file-$call.txt" 2>&1 ||
    echo "kernel file, $call call: exit $?"
  grep -E "kbench: (compiled|cached)|wall" "$out/kernel-file-$call.txt"
done
grep -E "my_softmax|fused " "$out/kernel-file-second.txt" | head -4
