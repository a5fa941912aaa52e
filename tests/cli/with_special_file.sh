#!/usr/bin/env bash
# Makes a special input file, then runs expect.sh with every @FILE@ in the command replaced by its
# path; a command that blocks on the file fails after 20 s instead of hanging the test run.
# usage: with_special_file.sh KIND EXIT_CODE SUBSTRING COMMAND [ARGS...]
#   KIND: fifo (a named pipe no one writes to), sparse-65M / sparse-513M (a file of that size
#   that takes no disk space: past the config and the results limits)
set -u
kind=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
file=$dir/input.json
case $kind in
  fifo) mkfifo "$file" ;;
  sparse-*) truncate -s "${kind#sparse-}" "$file" ;;
  *) echo "with_special_file.sh: unknown kind $kind" >&2; exit 2 ;;
esac
expected_code=$1 pattern=$2
shift 2
args=()
for arg in "$@"; do args+=("${arg//@FILE@/$file}"); done
exec timeout 20 bash "$(dirname "$0")/expect.sh" "$expected_code" "$pattern" "${args[@]}"
