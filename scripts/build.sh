#!/usr/bin/env bash
# Configures and builds kbench into ./build (Release). Extra arguments go to CMake's configure
# step, e.g. scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 for a faster, Hopper-only build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvcc >/dev/null 2>&1 && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S . -B build "$@"
cmake --build build -j "$(nproc)"
