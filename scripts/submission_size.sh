#!/usr/bin/env bash
# What the commits since BASE weigh when they are submitted, against the workplace's limits on
# one submission: 512 MiB packed (as git sends them) and 256 MiB of diffs added up as text (a
# file added in one commit and removed in a later one counts twice). A submission over either
# limit is refused whole, so this fails well before them: at a quarter of each by default.
#
#   scripts/submission_size.sh [BASE]      BASE: a commit (default: the upstream branch, else
#                                           the last commit older than 12 hours)
#   SUBMISSION_FRACTION=0.5 scripts/...    fail at another fraction of the limits
#
# It prints both sizes and the ten largest files the commits add or change, and exits 1 when a
# size passes its share of the limit. Keep bulky outputs (raw samples, probe logs, profiler
# reports) out of results/, and gzip large results files (as results/ already does).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

base=${1:-}
if [ -z "$base" ]; then
  base=$(git rev-parse --abbrev-ref --symbolic-full-name '@{upstream}' 2>/dev/null || true)
  [ -n "$base" ] || base=$(git rev-list -1 --before='12 hours ago' HEAD)
fi
[ -n "$base" ] || { echo "submission_size: no BASE given and no commit older than 12 hours" >&2; exit 2; }
git rev-parse --verify --quiet "$base^{commit}" >/dev/null || { echo "submission_size: '$base' is not a commit" >&2; exit 2; }

fraction=${SUBMISSION_FRACTION:-0.25}
mib=$((1024 * 1024))
packed=$(git rev-list --objects "$base..HEAD" | git pack-objects --stdout -q 2>/dev/null | wc -c)
diffs=$(git log -p --binary --format= "$base..HEAD" | wc -c)
commits=$(git rev-list --count "$base..HEAD")

echo "submission_size: $commits commits since $(git rev-parse --short "$base")"
awk -v p="$packed" -v d="$diffs" -v f="$fraction" -v mib="$mib" 'BEGIN {
  printf "  packed: %8.1f MiB  (limit 512 MiB, failing above %.0f MiB)\n", p / mib, 512 * f
  printf "  diffs:  %8.1f MiB  (limit 256 MiB, failing above %.0f MiB)\n", d / mib, 256 * f
}'
echo "  largest files added or changed (bytes at HEAD):"
# Sizes from HEAD's tree, not the work tree; awk rather than head, which would end the pipeline early.
git diff -z --name-only --diff-filter=AM "$base" HEAD -- |
  xargs -0 -r git ls-tree -l HEAD -- |
  awk -F'\t' '{ split($1, f, " "); printf "%12d  %s\n", f[4], $2 }' | sort -rn | awk 'NR <= 10'

awk -v p="$packed" -v d="$diffs" -v f="$fraction" -v mib="$mib" \
  'BEGIN { exit !(p > 512 * f * mib || d > 256 * f * mib) }' && {
  echo "submission_size: over ${fraction} of a limit; drop or compress what need not land" >&2
  exit 1
}
exit 0
