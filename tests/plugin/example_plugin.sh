#!/usr/bin/env bash
# Installs kbench into a fresh prefix, builds examples/plugin against that install only, and runs
# the installed binary from another folder: `list` shows the plugin's rows with their source,
# `--dry-run` plans them, `--kernel-file` compiles against the installed headers, and a second
# copy of the plugin is refused (exit 2, one line naming it).
# usage: example_plugin.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR CUDA_COMPILER [LAUNCHER]
set -u
cmake=$1 build=$2 source=$3 work=$4 nvcc=$5 launcher=${6:-}
prefix=$work/prefix
fail() { echo "FAIL: $*"; exit 1; }
# expect CODE SUBSTRING COMMAND...: the exit code, and the substring in stdout + stderr.
expect() {
  local code=$1 pattern=$2; shift 2
  local output; output=$("$@" 2>&1); local got=$?
  [ "$got" -eq "$code" ] || { echo "$output"; fail "'$*' exited $got, expected $code"; }
  grep -qF -- "$pattern" <<<"$output" || { echo "$output"; fail "output of '$*' lacks: $pattern"; }
  echo "ok: '$*' exited $got and printed: $pattern"
  last_output=$output
}

rm -rf "$prefix" && mkdir -p "$work" || fail "cannot prepare $work"
start=$SECONDS
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "install"; }
for file in bin/kbench share/kbench/configs/thresholds.json share/kbench/configs/add.json include/kbench/plugin.hpp \
            include/kbench/ops/softmax.hpp lib/cmake/kbench/kbenchConfig.cmake lib/cmake/kbench/kbenchConfigVersion.cmake; do
  [ -e "$prefix/$file" ] || fail "the install lacks $file"
done

# The example is built against the install only (kbench_DIR), for sm_90 alone (fast).
launchers=()
[ -n "$launcher" ] && launchers=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CUDA_COMPILER_LAUNCHER="$launcher")
"$cmake" -S "$source/examples/plugin" -B "$work/build" -Dkbench_DIR="$prefix/lib/cmake/kbench" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 "${launchers[@]}" >"$work/configure.log" 2>&1 \
  || { cat "$work/configure.log"; fail "configuring examples/plugin against $prefix"; }
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building examples/plugin"; }
echo "installed and built the example in $((SECONDS - start)) s"
lib=$work/build/libkbench_example.so
[ -f "$lib" ] || fail "no $lib"
# Of the plugin's own code only the entry points are exported (a toolchain that links the C++
# runtime statically may export that runtime's symbols too: they are not the plugin's).
if command -v nm >/dev/null; then
  exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' | grep -E 'kbench|rmsnorm|softmax' | sort | tr '\n' ' ')
  [ "$exported" = "kbench_plugin_abi kbench_plugin_register " ] || fail "$lib exports more than its entry points: $exported"
fi

cd "$work" || fail "cd $work"  # anywhere but the source and build trees
kbench=$prefix/bin/kbench
expect 0 "Configs (kbench --config FILE; format: configs/README.md) in $prefix/share/kbench/configs:" "$kbench" list
expect 0 "12 problems, 36 rows" "$kbench" --op add --size small,batch --dtype all --dry-run --no-references \
    --variant naive,cub_transform,d2d_copy

# An installed kbench compiles kernel files against its installed headers.
XDG_CACHE_HOME=$work/cache expect 0 "tiny_add" "$kbench" --kernel-file "$source/tests/fixtures/kernel_files/tiny_add.cu" list
rm -rf "$work/cache"

output=$("$kbench" --plugin "$lib" list 2>&1)
if grep -qF "is for op 'softmax', which takes no variants" <<<"$output"; then
  echo "$output"
  echo "SKIP: this tree's softmax is not yet an op definition, so no plugin can add a variant to it"
  exit 77
fi
expect 0 "warp_softmax" "$kbench" --plugin "$lib" list
grep -qF "(from $lib)" <<<"$last_output" || fail "list does not name $lib as the rows' source"
grep -qE "^  rmsnorm: .*\(from $lib\)" <<<"$last_output" || fail "list lacks the rmsnorm op from $lib"
grep -qE "^    warp_softmax +own .*\(from $lib\)" <<<"$last_output" || fail "list lacks softmax's warp_softmax from $lib"
expect 0 "rmsnorm fp32 4096x4096 (large)" "$kbench" --plugin "$lib" --op rmsnorm --size large --dry-run
expect 0 "problems, " "$kbench" --plugin "$lib" --op rmsnorm --size all --dtype all --dry-run
expect 0 "warp_softmax" "$kbench" --plugin "$lib" --op softmax --variant warp_softmax --dry-run

# The same plugin twice (a copy, as the same path is loaded once): its names are taken.
mkdir -p "$work/copy" && cp "$lib" "$work/copy/" || fail "copy"
expect 2 "$work/copy/libkbench_example.so: " "$kbench" --plugin "$lib" --plugin "$work/copy/libkbench_example.so" list
[ "$(grep -c . <<<"$last_output")" -eq 1 ] || fail "the refusal is more than one line"
echo "example plugin: all checks passed in $((SECONDS - start)) s"
