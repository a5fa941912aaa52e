#!/usr/bin/env bash
# The shape zoo (configs/shapes.json) on a lent GPU: every kbench variant, then PyTorch eager and
# torch.compile on the same cases, then the report (with PyTorch beside kbench), its plots and the
# gate, printing the wall time of each stage. A device call lasts at most 10 minutes, so the chain
# runs in its own process session and this script only starts it, waits for it, or stops it:
#
#   scripts/shapes_run.sh start OUT     # start the chain; returns at once
#   scripts/shapes_run.sh wait OUT [S]  # wait up to S seconds (default 540): exit 0 when the chain
#                                       # is done (its summary printed), 3 while it still runs
#   scripts/shapes_run.sh stop OUT      # end the chain (its process group) early
#   scripts/shapes_run.sh chain OUT     # the chain itself, in the foreground
#
# Or stage by stage, each in a device call of its own, so that a machine lost between calls
# loses one stage, not the chain (each stage appends to OUT/walltime.txt; OUT must come back
# from the device between calls, e.g. copied out of $OUT):
#
#   scripts/shapes_run.sh sweep OUT     # the kbench sweep alone (GPU)
#   scripts/shapes_run.sh torch OUT     # PyTorch eager and torch.compile alone (GPU; needs kbench's binary)
#   scripts/shapes_run.sh finish OUT    # plots, report, scoreboard and gate from OUT's two files
#                                       # (no GPU: runs on the build machine too)
#
# OUT gets run.json (kbench), torch.json (eager and compile rows), plots/, report.md, run.csv,
# scoreboard.md (issue 22's targets, scripts/zoo_scoreboard.py), gate.txt, and walltime.txt with
# each stage's seconds. kbench must be built in ./build (or KBENCH names the binary).
#
# SHAPES_CONFIG picks another config (default configs/shapes.json; configs/shapes_fresh.json is
# a second draw of the same classes) and SHAPES_VARIANTS a --variant list (default: every variant;
# e.g. auto, which still runs each case's baseline and copy roof).
set -uo pipefail
step=${1:?usage: shapes_run.sh start|wait|stop|chain|sweep|torch|finish OUT [SECONDS]}
out=${2:?usage: shapes_run.sh start|wait|stop|chain|sweep|torch|finish OUT [SECONDS]}
config=${SHAPES_CONFIG:-configs/shapes.json}
kbench=${KBENCH:-build/kbench}
variants=()
[ -n "${SHAPES_VARIANTS:-}" ] && variants=(--variant "$SHAPES_VARIANTS")

# PyTorch on the zoo: kbenchpy (python/) on kbench's own plan of the config.
torch_baseline() {
  PYTHONPATH=python python3 -m kbenchpy torch --kbench "$kbench" "$@"
}

# Runs "$@" as stage $1's command, appending "stage: N s (exit code C)" to walltime.txt.
timed() {
  local name=$1
  shift
  local begin=$SECONDS
  "$@"
  local code=$?
  echo "$name: $((SECONDS - begin)) s (exit code $code)" | tee -a "$out/walltime.txt"
  return $code
}

sweep() {
  mkdir -p "$out"
  timed "kbench sweep (${SHAPES_VARIANTS:-every variant})" \
    "$kbench" --config "$config" "${variants[@]}" --json "$out/run.json" --force > "$out/run.txt" 2> "$out/run.progress"
}

torch_stage() {
  mkdir -p "$out"
  timed "PyTorch eager and torch.compile" \
    torch_baseline --config "$config" --compile --json "$out/torch.json" --force > "$out/torch.txt" 2>&1
}

finish() {
  timed "plots" python3 scripts/plot_results.py "$out/run.json" "$out/torch.json" --out "$out/plots" > "$out/plots.txt" 2>&1
  timed "report" "$kbench" report "$out/run.json" --against "$out/torch.json" --against-label torch \
    --md "$out/report.md" --csv "$out/run.csv"
  timed "scoreboard" python3 scripts/zoo_scoreboard.py "$out/run.json" --against "$out/torch.json" > "$out/scoreboard.md"
  "$kbench" gate "$out/run.json" > "$out/gate.txt" 2>&1
  echo "gate exit code: $?" >> "$out/gate.txt"
}

chain() {
  mkdir -p "$out"
  : > "$out/walltime.txt"
  sweep
  torch_stage
  finish
  echo "done" > "$out/chain.done"
}

case $step in
  chain) chain ;;
  sweep) sweep ;;
  torch) torch_stage ;;
  finish) finish ;;
  start)
    mkdir -p "$out"
    rm -f "$out/chain.done"
    setsid nohup "$0" chain "$out" > "$out/chain.log" 2>&1 < /dev/null &
    echo $! > "$out/chain.pid"
    echo "shape zoo chain started (process group $!): $config -> $out"
    ;;
  wait)
    limit=${3:-540}
    pid=$(cat "$out/chain.pid" 2> /dev/null) || { echo "shapes_run.sh: no chain started in $out" >&2; exit 2; }
    for _ in $(seq 1 "$limit"); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 1
    done
    if kill -0 "$pid" 2> /dev/null; then
      echo "still running; so far:"
      cat "$out/walltime.txt" 2> /dev/null
      tail -n 1 "$out/run.progress" 2> /dev/null
      exit 3
    fi
    cat "$out/walltime.txt"
    tail -n 2 "$out/gate.txt" 2> /dev/null
    [ -f "$out/chain.done" ] || { echo "the chain ended without finishing: see $out/chain.log"; exit 1; }
    ;;
  stop)
    pid=$(cat "$out/chain.pid" 2> /dev/null) || { echo "shapes_run.sh: no chain started in $out" >&2; exit 2; }
    kill -TERM -- "-$pid" 2> /dev/null && echo "stopped process group $pid" || echo "process group $pid is not running"
    ;;
  *) echo "shapes_run.sh: unknown step '$step' (start, wait, stop, chain, sweep, torch or finish)" >&2; exit 2 ;;
esac
