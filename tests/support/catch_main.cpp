// One main for both test binaries and both Catch2 major versions. The GPU binary first looks for
// a CUDA device; without one it says so on one line and exits 77, which CTest reports as Skipped.
#if KBENCH_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#ifdef KBENCH_GPU_TEST_MAIN
#include "harness/device/device_setup.hpp"

#include <cstdio>
#endif

int main(int argc, char** argv) {
#ifdef KBENCH_GPU_TEST_MAIN
  try {
    kbench::select_device(0);
  } catch (const std::exception& e) {
    std::printf("SKIPPED: GPU tests need a CUDA device: %s\n", e.what());
    return 77;
  }
#endif
  return Catch::Session().run(argc, argv);
}
