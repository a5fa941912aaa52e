#!/usr/bin/env bash
# --kernel-file: a tiny file compiles once into a fresh cache and is found there the second time;
# its variant is listed with the file as its source and planned; a file with a syntax error shows
# nvcc's file:line message and exits 2 with one line naming the file.
# usage: kernel_file.sh KBENCH FIXTURES_DIR WORK_DIR
set -u
kbench=$1 fixtures=$2 work=$3
fail() { echo "FAIL: $*"; exit 1; }
expect() {
  local code=$1 pattern=$2; shift 2
  local output; output=$("$@" 2>&1); local got=$?
  [ "$got" -eq "$code" ] || { echo "$output"; fail "'$*' exited $got, expected $code"; }
  grep -qF -- "$pattern" <<<"$output" || { echo "$output"; fail "output of '$*' lacks: $pattern"; }
  echo "ok: '$*' exited $got and printed: $pattern"
  last_output=$output
}

rm -rf "$work" && mkdir -p "$work" || fail "cannot prepare $work"
export XDG_CACHE_HOME=$work/cache
tiny=$fixtures/tiny_add.cu
start=$SECONDS
expect 0 "kbench: compiled $tiny in " "$kbench" --kernel-file "$tiny" list
grep -qE "^    tiny_add +own .*\(from $tiny\)" <<<"$last_output" || fail "list lacks tiny_add from $tiny"
echo "compiled in $((SECONDS - start)) s"
ls "$work/cache/kbench/kernels/"tiny_add-*.so >/dev/null || fail "nothing cached under $work/cache/kbench/kernels"
expect 0 "kbench: cached $tiny (" "$kbench" --kernel-file "$tiny" --op add --variant tiny_add --size small --dry-run --no-references
grep -qF "add fp32 256x256 (small): tiny_add" <<<"$last_output" || fail "the dry run does not plan tiny_add"
grep -qF "compiled" <<<"$last_output" && fail "the second run compiled again"

bad=$fixtures/syntax_error.cu
expect 2 "syntax_error.cu(4): error" "$kbench" --kernel-file "$bad" list
grep -qF "kbench: error: $bad: does not compile (nvcc exit" <<<"$last_output" || fail "no one-line error naming $bad"
[ "$(grep -c "^kbench: error:" <<<"$last_output")" -eq 1 ] || fail "more than one error line"
expect 2 "no-such-file.cu: cannot open the kernel file for reading" "$kbench" --kernel-file "$work/no-such-file.cu" list
echo "kernel files: all checks passed in $((SECONDS - start)) s"
