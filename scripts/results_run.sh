#!/usr/bin/env bash
# The committed-results run on a lent GPU, in two steps so that a sweep longer than one device
# call survives: `start` launches the sweep in its own process session and returns; `finish`
# waits for it, then writes the report, the CSV and the gate's verdict beside the results.
# usage: scripts/results_run.sh start|finish DIR [CONFIG]   (kbench built in ./build)
set -uo pipefail
step=${1:?usage: results_run.sh start|finish DIR [CONFIG]}
dir=${2:?usage: results_run.sh start|finish DIR [CONFIG]}
config=${3:-configs/all.json}
mkdir -p "$dir"
case $step in
  start)
    setsid nohup build/kbench --config "$config" --json "$dir/run.json" --force > "$dir/run.txt" 2> "$dir/run.progress" < /dev/null &
    echo "sweep started (pid $!): $config -> $dir/run.json"
    ;;
  finish)
    for _ in $(seq 1 570); do
      pgrep -f "build/kbench --config" > /dev/null || break
      sleep 1
    done
    if pgrep -f "build/kbench --config" > /dev/null; then
      echo "sweep still running: $(tail -n 1 "$dir/run.progress")"
      exit 3
    fi
    tail -n 3 "$dir/run.progress"
    build/kbench report "$dir/run.json" --md "$dir/report.md" --csv "$dir/run.csv"
    build/kbench gate "$dir/run.json" > "$dir/gate.txt" 2>&1
    echo "gate exit code: $?" >> "$dir/gate.txt"
    cat "$dir/gate.txt"
    ;;
  *) echo "results_run.sh: unknown step '$step' (start or finish)" >&2; exit 2 ;;
esac
