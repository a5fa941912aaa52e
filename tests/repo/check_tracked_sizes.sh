#!/usr/bin/env bash
# No committed file over 16 MiB (the most a device call brings back as one file): a larger one is
# build output, a profiler report or raw samples, none of which belongs in the repository, and a
# few of them push a submission past its size limit (scripts/submission_size.sh). Usage:
# check_tracked_sizes.sh SOURCE_DIR. Exit 77 (skipped) outside a git checkout.
set -euo pipefail
cd "$1"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "not a git checkout: nothing to check"; exit 77; }
limit=$((16 * 1024 * 1024))
# Sizes as committed at HEAD ("<mode> <type> <object> <size>\t<path>"; submodules show "-").
over=$(git ls-tree -r -l HEAD | awk -F'\t' -v limit="$limit" '{ split($1, f, " ") } f[4] != "-" && f[4] + 0 > limit')
if [ -n "$over" ]; then
  echo "files over 16 MiB at HEAD (mode type object bytes, path):"
  echo "$over"
  exit 1
fi
echo "$(git ls-tree -r HEAD | wc -l) files at HEAD, none over 16 MiB"
