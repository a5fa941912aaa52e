#!/usr/bin/env bash
# `kbench device` either describes a GPU (exit 0, a peak bandwidth line) or, on a machine without
# one, prints one clear error line and exits 3. Anything else fails.
set -u
output=$("$1" device 2>&1)
code=$?
case $code in
  0) grep -q "peak bandwidth" <<<"$output" && { echo "ok: a CUDA device is present:"; echo "$output"; exit 0; } ;;
  3) [ "$(wc -l <<<"$output")" -eq 1 ] && grep -q "^kbench: error: no usable CUDA device" <<<"$output" &&
       { echo "ok: no CUDA device, one clear line and exit 3: $output"; exit 0; } ;;
esac
echo "FAIL: 'kbench device' exited $code with:"; echo "$output"; exit 1
