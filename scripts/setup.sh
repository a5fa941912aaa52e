#!/usr/bin/env bash
# Installs kbench's build dependencies as system packages (Debian 12, Ubuntu 24.04), only those
# missing, and checks that the CUDA Toolkit is there. Nothing is downloaded from anywhere else.
# matplotlib is for scripts/plot_results.py, for the `python3` first on PATH (the one the README's
# commands run): Debian's python3-matplotlib when that is the system's /usr/bin/python3, else pip
# installs it into that interpreter (pyenv, conda, a venv).
set -euo pipefail

# package  test-for-presence
requirements=(
  "cmake:command -v cmake"
  "g++:command -v g++"
  "make:command -v make"
  "libcli11-dev:test -f /usr/include/CLI/CLI.hpp -o -f /usr/local/include/CLI/CLI.hpp"
  "nlohmann-json3-dev:test -f /usr/include/nlohmann/json.hpp -o -f /usr/local/include/nlohmann/json.hpp"
  "libfmt-dev:test -f /usr/include/fmt/format.h -o -f /usr/local/include/fmt/format.h"
  "catch2:test -f /usr/include/catch2/catch.hpp -o -f /usr/include/catch2/catch_test_macros.hpp -o -f /usr/local/include/catch2/catch_test_macros.hpp"
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

missing=()
for requirement in "${requirements[@]}"; do
  package=${requirement%%:*}
  check=${requirement#*:}
  eval "$check" >/dev/null 2>&1 || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all build dependencies are present"
fi

# matplotlib for the python3 on PATH, which need not be Debian's.
python=$(command -v python3 || true)
if [ -n "$python" ] && ! "$python" -c 'import matplotlib' >/dev/null 2>&1; then
  if [ "$(readlink -f "$python")" = "$(readlink -f /usr/bin/python3 2>/dev/null)" ]; then
    echo "setup: installing python3-matplotlib for $python"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq --no-install-recommends python3-matplotlib
  else
    echo "setup: installing matplotlib with pip for $python (not the system's python3)"
    "$python" -m pip install --quiet matplotlib
  fi
  "$python" -c 'import matplotlib' || { echo "setup: error: matplotlib still does not import in $python" >&2; exit 1; }
fi

nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "setup: error: the CUDA Toolkit (nvcc) was not found on PATH or in /usr/local/cuda/bin;" \
       "install CUDA Toolkit 13 (cuda-toolkit-13-0 from NVIDIA's apt repository) first" >&2
  exit 1
fi
echo "setup: CUDA compiler: $nvcc ($("$nvcc" --version | tail -n 1))"
