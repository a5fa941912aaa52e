#!/usr/bin/env bash
# Runs a command and checks its exit code and that its output contains a fixed string.
# usage: expect.sh EXIT_CODE SUBSTRING COMMAND [ARGS...]
set -u
expected_code=$1 pattern=$2
shift 2
output=$("$@" 2>&1)
code=$?
if [ "$code" -ne "$expected_code" ]; then
  echo "FAIL: '$*' exited $code, expected $expected_code. Output:"; echo "$output"; exit 1
fi
if ! grep -qF -- "$pattern" <<<"$output"; then
  echo "FAIL: output of '$*' lacks: $pattern"; echo "Output:"; echo "$output"; exit 1
fi
echo "ok: '$*' exited $code and printed: $pattern"
