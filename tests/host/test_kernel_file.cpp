#include "harness/common/input_error.hpp"
#include "harness/ops/kernel_file.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <string>
#include <vector>

using namespace kbench;

namespace {

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

KernelFileToolchain toolchain() { return {"/opt/cuda/bin/nvcc", "/opt/kbench/include", "90"}; }

}  // namespace

TEST_CASE("gencode options follow CMake's architecture forms", "[kernel_file]") {
  CHECK(gencode_options("90") == std::vector<std::string>{"-gencode=arch=compute_90,code=[sm_90,compute_90]"});
  CHECK(gencode_options("80-real;90-real;90-virtual") ==
        std::vector<std::string>{"-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90",
                                 "-gencode=arch=compute_90,code=compute_90"});
  CHECK(gencode_options("80-real,90a-real") ==
        std::vector<std::string>{"-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90a,code=sm_90a"});
  CHECK_THROWS_AS(gencode_options("sm_90"), InputError);
  CHECK_THROWS_AS(gencode_options("90-fast"), InputError);
  CHECK_THROWS_AS(gencode_options(""), InputError);
}

TEST_CASE("nvcc's command line builds a hidden-symbol shared library with the public headers", "[kernel_file]") {
  const std::vector<std::string> command = nvcc_command(toolchain(), "my_softmax.cu", "/cache/out.so");
  REQUIRE(command.size() > 4);
  CHECK(command.front() == "/opt/cuda/bin/nvcc");
  CHECK(contains(command, "--shared"));
  CHECK(contains(command, "-std=c++17"));
  CHECK(contains(command, "-O3"));
  CHECK(contains(command, "-Xcompiler=-fPIC,-fvisibility=hidden"));
  CHECK(contains(command, "-I/opt/kbench/include"));
  CHECK(contains(command, "-gencode=arch=compute_90,code=[sm_90,compute_90]"));
  CHECK(command[command.size() - 3] == "-o");
  CHECK(command[command.size() - 2] == "/cache/out.so");
  CHECK(command.back() == "my_softmax.cu");
}

TEST_CASE("the cache key changes with the content, API version, architecture and flags only", "[kernel_file]") {
  const std::vector<std::string> flags = kernel_file_flags(toolchain());
  const std::string key = kernel_cache_key("__global__ void k() {}", 1, "90", flags);
  CHECK(key.size() == 32);
  CHECK(key.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(kernel_cache_key("__global__ void k() {}", 1, "90", flags) == key);
  CHECK(kernel_cache_key("__global__ void k() { }", 1, "90", flags) != key);
  CHECK(kernel_cache_key("__global__ void k() {}", 2, "90", flags) != key);
  CHECK(kernel_cache_key("__global__ void k() {}", 1, "80", flags) != key);
  std::vector<std::string> other_flags = flags;
  other_flags.push_back("-G");
  CHECK(kernel_cache_key("__global__ void k() {}", 1, "90", other_flags) != key);
  // Fields are delimited: moving text from one field to the next changes the key.
  CHECK(kernel_cache_key("a", 1, "90", {"b"}) != kernel_cache_key("a9", 1, "0", {"b"}));
}

TEST_CASE("the kernel cache is per user: XDG_CACHE_HOME, else HOME/.cache", "[kernel_file]") {
  CHECK(kernel_cache_dir("/x/cache", "/home/me") == "/x/cache/kbench/kernels");
  CHECK(kernel_cache_dir("", "/home/me") == "/home/me/.cache/kbench/kernels");
  CHECK(kernel_cache_dir(nullptr, "/home/me") == "/home/me/.cache/kbench/kernels");
  CHECK_THROWS_AS(kernel_cache_dir(nullptr, nullptr), InputError);
}

TEST_CASE("an unreadable kernel file is refused naming it", "[kernel_file]") {
  std::string diagnostics;
  try {
    compile_kernel_file("/no/such/file.cu", toolchain(), "/tmp/unused-kbench-cache", diagnostics);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "/no/such/file.cu: cannot open the kernel file for reading");
  }
}
