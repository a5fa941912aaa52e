#!/usr/bin/env bash
# Submits the shard array (docs/slurm/kbench-shards.sbatch) and its merge job, which starts when
# every shard has ended. Run from the repository root. Options go to both jobs' environment:
#   KBENCH_CONFIG (default configs/all.json), KBENCH_OUT (default kbench-out).
# More or fewer shards: sbatch's --array, e.g. docs/slurm/submit.sh --array=1-8.
set -euo pipefail
here=$(dirname "$0")
shards=$(sbatch --parsable --export=ALL "$@" "$here/kbench-shards.sbatch")
shards=${shards%%;*}  # "id;cluster" on federated clusters
merge=$(sbatch --parsable --export=ALL --dependency="afterany:${shards}" "$here/kbench-merge.sbatch")
echo "shards: job ${shards}; merge and report: job ${merge} (after the shards)"
