#!/usr/bin/env bash
# The gate's two error rates on a GPU (README, "How the gate decides"), at the gate's default
# settings, written to OUT/summary.md with every command that produced them:
#  (b) sensitivity: the test plugin's delayed_add (tests/gpu_plugin/delayed_add.cu) at 4096^2 and
#      8192^2 fp32 (about 70 and 270 us per call on an H100), measured twice with no delay, then
#      with delays of 1, 2, 3 and 5 % of its first median, each run in its own process; every run
#      is gated against the first: the smallest slowdown flagged.
#  (a) false positives: one build runs CONFIG (default configs/targets.json) twice, in two
#      processes; the second is gated against the first: the rows flagged as regressions (target
#      0), at the default --max-regression and at 1, 3 and 5 %.
# Both use --modes cold --no-kernel-breakdown and kbench's default sampling. Needs a GPU and a
# Release build with its tests (scripts/build.sh, or cmake --build build): build/kbench and
# build/tests/libkbench_test_delayed_add.so. About 6-8 minutes on an H100, most of it (a).
# usage: scripts/gate_error_rates.sh OUT [CONFIG]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gate_error_rates.sh OUT [CONFIG]}
config=${2:-configs/targets.json}
kbench=${KBENCH_BIN:-build/kbench}  # KBENCH_BIN: another binary (a stand-in, for testing the script)
plugin=${KBENCH_PLUGIN_SO:-build/tests/libkbench_test_delayed_add.so}
for file in "$kbench" "$plugin" "$config"; do
  [[ -f $file ]] || { echo "gate_error_rates.sh: $file is missing (build first: scripts/build.sh)" >&2; exit 2; }
done
mkdir -p "$out"
common=(--modes cold --no-kernel-breakdown)
summary=$out/summary.md
start=$SECONDS

# The median (ms) of ROW's cold timing in a results file.
median_ms() {  # FILE VARIANT
  python3 - "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["cases"] if r["variant"] == sys.argv[2] and r["status"] == "passed"]
print(rows[0]["timings"][0]["stats"]["median_ms"] if rows else "")
EOF
}

# Runs the gate and prints how many rows it flagged as regressions (its full output in LOG).
flagged() {  # LOG gate-arguments...
  local log=$1
  shift
  "$kbench" gate "$@" > "$log" 2>&1 || true
  grep -c ': regression: ' "$log" || true
}

{
  echo "# Gate error rates"
  echo
  echo "kbench $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%dT%H:%M:%SZ), $("$kbench" device 2>/dev/null | head -n 1)"
  echo
  echo "Gate defaults: --max-regression 2 (%), Mann-Whitney p < 0.01 when both rows kept samples (they do by default: --keep-samples 2)."
  echo
  echo "## (b) Sensitivity: delayed_add, slowed by a known delay"
  echo
  echo "| shape | delay requested | delay (ns) | median base -> slowed | change | flagged |"
  echo "|---|---|---|---|---|---|"
} > "$summary"

declare -A smallest
for shape in 4096x4096 8192x8192; do
  run() {  # NAME DELAY_NS
    KBENCH_TEST_DELAY_NS=$2 "$kbench" --plugin "$plugin" --op add --variant delayed_add --dtype fp32 --shape "$shape" \
      --no-references "${common[@]}" --json "$out/sens-$shape-$1.json" --force > "$out/sens-$shape-$1.txt" 2>&1
  }
  run base 0
  run again 0
  base=$(median_ms "$out/sens-$shape-base.json" delayed_add)
  [[ -n $base ]] || { echo "gate_error_rates.sh: delayed_add did not pass at $shape (see $out/sens-$shape-base.txt)" >&2; exit 1; }
  smallest[$shape]=none
  for pct in 0 1 2 3 5; do
    if [[ $pct == 0 ]]; then
      name=again delay=0
    else
      name=slow$pct delay=$(python3 -c "print(round($pct / 100 * $base * 1e6))")
      run "$name" "$delay"
    fi
    n=$(flagged "$out/sens-$shape-$name.gate.txt" "$out/sens-$shape-$name.json" --baseline "$out/sens-$shape-base.json")
    slowed=$(median_ms "$out/sens-$shape-$name.json" delayed_add)
    change=$(python3 -c "print(f'{($slowed / $base - 1) * 100:+.2f} %')")
    verdict=$([[ $n -gt 0 ]] && echo yes || echo no)
    [[ $verdict == yes && $pct -gt 0 && ${smallest[$shape]} == none ]] && smallest[$shape]="$pct %"
    # A smaller slowdown flagged while a larger one is not makes "smallest" meaningless: say so.
    [[ $verdict == no && $pct -gt 0 && ${smallest[$shape]} != none ]] && smallest[$shape]="${smallest[$shape]} (but $pct % missed)"
    echo "| $shape | $pct % | $delay | $(python3 -c "print(f'{$base * 1e3:.2f} -> {$slowed * 1e3:.2f} us')") | $change | $verdict |" >> "$summary"
  done
  echo "sensitivity $shape done after $((SECONDS - start)) s" >&2
done
{
  echo
  for shape in 4096x4096 8192x8192; do echo "Smallest slowdown flagged at $shape: **${smallest[$shape]}** (target: 3 % or less)."; done
  echo
  echo "Commands: \`KBENCH_TEST_DELAY_NS=D build/kbench --plugin $plugin --op add --variant delayed_add --dtype fp32 --shape SHAPE --no-references ${common[*]} --json RUN.json\`, then \`build/kbench gate RUN.json --baseline BASE.json\` (files and gate outputs: \`sens-*\` beside this summary)."
  echo
  echo "## (a) False positives: $config measured twice by one build"
  echo
} >> "$summary"

"$kbench" --config "$config" "${common[@]}" --json "$out/fp-a.json" --force > "$out/fp-a.txt" 2>&1 || echo "first sweep: exit $?" >&2
echo "false positives: first sweep done after $((SECONDS - start)) s" >&2
"$kbench" --config "$config" "${common[@]}" --json "$out/fp-b.json" --force > "$out/fp-b.txt" 2>&1 || echo "second sweep: exit $?" >&2
echo "false positives: second sweep done after $((SECONDS - start)) s" >&2
{
  echo "| --max-regression | rows flagged as regressions | lower clocks | compared (by samples) |"
  echo "|---|---|---|---|"
} >> "$summary"
for pct in 2 1 3 5; do
  log=$out/fp-gate-$pct.txt
  n=$(flagged "$log" "$out/fp-b.json" --baseline "$out/fp-a.json" --max-regression "$pct")
  clocks=$(grep -c 'lower clocks' "$log" || true)
  compared=$(grep -o '[0-9]* rows compared with the baseline run ([0-9]* by samples' "$log" | sed 's/ rows compared with the baseline run (/ (/; s/ by samples/)/' || true)
  echo "| $pct %$([[ $pct == 2 ]] && echo ' (default)') | $n | $clocks | ${compared:-?} |" >> "$summary"
done
{
  echo
  echo "Commands: \`build/kbench --config $config ${common[*]} --json fp-a.json\`, the same into \`fp-b.json\`, then \`build/kbench gate fp-b.json --baseline fp-a.json [--max-regression P]\` (outputs: \`fp-gate-P.txt\`; threshold misses there are not counted)."
  echo
  echo "Wall time: $((SECONDS - start)) s."
} >> "$summary"
cat "$summary"
