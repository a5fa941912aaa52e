#!/usr/bin/env bash
# Builds the host C++ code with AddressSanitizer and UndefinedBehaviorSanitizer (CMake option
# KBENCH_SANITIZE) into ./build-sanitize and runs the host tests and the CLI tests under them.
# Any sanitizer report fails the run. Needs no GPU; extra arguments go to CMake's configure step.
#
# The .cu files compile as usual, for sm_90 PTX only: no test here launches a kernel, and PTX
# skips the slowest part of the device build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvcc >/dev/null 2>&1 && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
start=$(date +%s)
cmake -S . -B build-sanitize -DKBENCH_SANITIZE=ON -DCMAKE_CUDA_ARCHITECTURES=90-virtual "$@"
# The CLI tests also load three small test libraries (tests/support/*_plugin.cpp).
cmake --build build-sanitize -j "$(nproc)" --target kbench_host_tests kbench kbench_test_not_a_plugin kbench_test_old_api_plugin \
  kbench_test_bad_name_plugin

# Every report ends the process with exit code 86, which no test expects, so it fails that test
# (LeakSanitizer's leak reports included). protect_shadow_gap=0: with an NVIDIA driver present,
# the driver reserves fixed addresses inside ASan's shadow gap, and every CUDA call that reaches
# it (cudaGetDeviceCount included) fails with "out of memory" unless the gap is left unprotected
# (google/sanitizers issue 629). Without a driver it changes nothing; neither do the suppressions,
# which cover the driver library's own allocations only.
export ASAN_OPTIONS=exitcode=86:protect_shadow_gap=0:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_string_checks=1
export LSAN_OPTIONS=exitcode=86:suppressions=$PWD/tests/sanitize/lsan_suppressions.txt
export UBSAN_OPTIONS=exitcode=86:print_stacktrace=1:halt_on_error=1
# The GPU tests are not built here (they need a device and are run by the normal build).
ctest --test-dir build-sanitize --output-on-failure -E '^gpu_tests$'
echo "sanitize_host_tests: no sanitizer reports; $(($(date +%s) - start)) s"
