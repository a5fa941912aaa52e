#!/usr/bin/env bash
# `--json` with and without `--dry-run` (README: Usage; results/PLAN_SCHEMA.md).
# usage: plan_json.sh plan KBENCH CONFIGS_DIR
#   --dry-run --json writes a plan (and still prints the listing), refuses an existing file
#   without --force, replaces it with --force.
# usage: plan_json.sh results KBENCH
#   without --dry-run, --json is a results file: on a GPU, a results document and no plan; without
#   one, exit 3 and no file at all. Exits 77 (skipped) without a GPU.
set -u
mode=$1 kbench=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ "$mode" = plan ]; then
  configs=$3
  plan=$tmp/plan.json
  run() { "$kbench" --config "$configs/add.json" --size small --dry-run --json "$plan" "$@" 2>&1; }
  output=$(run) || fail "--dry-run --json exited $?: $output"
  grep -qF "add fp32 256x256 (small): naive, vectorized" <<<"$output" || fail "no listing: $output"
  grep -qF "Plan written to $plan" <<<"$output" || fail "no 'Plan written to': $output"
  grep -qF '"kind": "kbench-plan"' "$plan" || fail "$plan is not a plan: $(head -c 400 "$plan")"
  grep -qF '"plan_schema_version": 1' "$plan" || fail "$plan lacks plan_schema_version 1"
  grep -qF '"schema_version"' "$plan" && fail "$plan has a results schema_version"
  cp "$plan" "$tmp/first.json"
  output=$(run); code=$?
  [ "$code" -eq 2 ] || fail "an existing plan file: exit $code, expected 2: $output"
  grep -qF -- "--json: '$plan' exists; give --force to replace it" <<<"$output" || fail "message: $output"
  cmp -s "$plan" "$tmp/first.json" || fail "a refused --json changed the file"
  output=$(run --force --dtype fp16) || fail "--force: exit $?: $output"
  grep -qF '"dtype": "fp16"' "$plan" || fail "--force did not replace the plan"
  grep -qF '"dtype": "fp32"' "$plan" && fail "--force left fp32 cases in the plan"
  echo "ok: --dry-run --json writes the plan, refuses an existing file, replaces it with --force"
  exit 0
fi

results=$tmp/run.json
output=$("$kbench" --op add --size small --variant naive --no-references --modes cold --warmup-calls 1 \
  --warmup-time-s 0 --min-samples 3 --max-samples 3 --min-time-s 0 --no-kernel-breakdown --json "$results" 2>&1)
code=$?
case $code in
  3) [ -e "$results" ] && fail "a run without a device left $results"
     echo "skipped: no CUDA device (exit 3, no file written): $output"; exit 77 ;;
  0) grep -qF '"schema_version": 1' "$results" || fail "$results is not a results file"
     grep -qF 'kbench-plan' "$results" && fail "--json without --dry-run wrote a plan"
     grep -qF "Results written to $results" <<<"$output" || fail "no 'Results written to': $output"
     echo "ok: without --dry-run, --json is a results file"; exit 0 ;;
esac
fail "a run with --json exited $code: $output"
