#!/usr/bin/env bash
# No tracked file over 16 MiB (the most a device call brings back as one file): a larger one is
# build output, a profiler report or raw samples, none of which belongs in the repository, and a
# few of them push a submission past its size limit (scripts/submission_size.sh). Usage:
# check_tracked_sizes.sh SOURCE_DIR. Exit 77 (skipped) outside a git checkout.
set -euo pipefail
cd "$1"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "not a git checkout: nothing to check"; exit 77; }
limit=$((16 * 1024 * 1024))
over=$(git ls-files -z | xargs -0 -r stat -c '%s %n' -- 2>/dev/null | awk -v limit="$limit" '$1 > limit') || true  # a tracked file deleted in the work tree is not stat'ed
if [ -n "$over" ]; then
  echo "tracked files over 16 MiB (bytes, path):"
  echo "$over"
  exit 1
fi
echo "$(git ls-files | wc -l) tracked files, none over 16 MiB"
