#include "harness/ops/kernel_file.hpp"

#include "harness/common/input_error.hpp"
#include "harness/device/build_info.hpp"

#include "kbench/version.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace kbench {

namespace {

namespace fs = std::filesystem;

/// FNV-1a over `text`, from `state`.
std::uint64_t fnv1a(std::uint64_t state, const std::string& text) {
  for (const unsigned char c : text) {
    state ^= c;
    state *= 0x100000001b3ULL;
  }
  return state;
}

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

/// This kbench's version and commit: what the public headers' inline code is.
std::string kbench_build_identity() {
  const BuildInfo build = build_info();
  return build.version + " " + build.git_commit + " dirty=" + build.git_dirty;
}

/// Runs `argv`, its stdout and stderr into `output`; returns its exit status, or -1 when it
/// could not be started.
int run_capturing(const std::vector<std::string>& argv, std::string& output) {
  // Everything the child needs is built before fork: between fork and exec it only calls
  // async-signal-safe functions (the process may have threads, e.g. the CUDA runtime's).
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
  const pid_t child = fork();
  if (child < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return -1;
  }
  if (child == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0) output.append(buffer, static_cast<std::size_t>(got));
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::vector<std::string> gencode_options(const std::string& architectures) {
  std::vector<std::string> options;
  std::size_t start = 0;
  while (start <= architectures.size()) {
    const std::size_t end = std::min(architectures.find_first_of(";,", start), architectures.size());
    const std::string item = architectures.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    const std::size_t dash = item.find('-');
    const std::string number = item.substr(0, dash);
    const std::string suffix = dash == std::string::npos ? "" : item.substr(dash + 1);
    const bool digits = !number.empty() && number.find_first_not_of("0123456789") == std::string::npos;
    // "90a" (arch-specific) is accepted as CMake accepts it.
    const bool arch_specific = number.size() > 1 && number.back() == 'a' &&
                               number.find_first_not_of("0123456789") == number.size() - 1;
    if ((!digits && !arch_specific) || (suffix != "" && suffix != "real" && suffix != "virtual")) {
      throw InputError("CUDA architecture '" + item + "': expected a number such as 90, 90-real or 90-virtual");
    }
    const std::string code = suffix == "real" ? "sm_" + number
                             : suffix == "virtual" ? "compute_" + number
                                                   : "[sm_" + number + ",compute_" + number + "]";
    options.push_back("-gencode=arch=compute_" + number + ",code=" + code);
  }
  if (options.empty()) throw InputError("no CUDA architecture to compile kernel files for");
  return options;
}

std::vector<std::string> kernel_file_flags(const KernelFileToolchain& toolchain) {
  std::vector<std::string> flags{"-std=c++17", "-O3", "-lineinfo", "--shared",
                                 "-Xcompiler=-fPIC,-fvisibility=hidden", "-I" + toolchain.include_dir};
  for (std::string& option : gencode_options(toolchain.architectures)) flags.push_back(std::move(option));
  return flags;
}

std::vector<std::string> nvcc_command(const KernelFileToolchain& toolchain, const std::string& source,
                                      const std::string& output) {
  std::vector<std::string> command{toolchain.nvcc};
  for (std::string& flag : kernel_file_flags(toolchain)) command.push_back(std::move(flag));
  command.insert(command.end(), {"-o", output, source});
  return command;
}

std::string kernel_cache_key(const std::string& content, int api_version, const std::string& architectures,
                             const std::vector<std::string>& flags) {
  // Each field with its length, so that no two different inputs hash the same text.
  std::string text;
  const auto field = [&](const std::string& value) { text += std::to_string(value.size()) + ':' + value; };
  field(content);
  field(std::to_string(api_version));
  field(architectures);
  for (const std::string& flag : flags) field(flag);
  // Two FNV-1a streams from different offsets: 128 bits, enough to make an accidental clash moot.
  return hex(fnv1a(0xcbf29ce484222325ULL, text)) + hex(fnv1a(0x84222325cbf29ce4ULL, text));
}

std::string kernel_cache_dir(const char* xdg_cache_home, const char* home) {
  if (xdg_cache_home && *xdg_cache_home) return std::string(xdg_cache_home) + "/kbench/kernels";
  if (home && *home) return std::string(home) + "/.cache/kbench/kernels";
  throw InputError("--kernel-file: neither XDG_CACHE_HOME nor HOME is set: no folder to cache compiled kernels in");
}

CompiledKernelFile compile_kernel_file(const std::string& path, const KernelFileToolchain& toolchain,
                                       const std::string& cache_dir, std::string& diagnostics) {
  std::ifstream in(path, std::ios::binary);
  std::error_code error;
  if (!in || fs::is_directory(path, error)) throw InputError(path + ": cannot open the kernel file for reading");
  std::ostringstream content;
  content << in.rdbuf();

  const std::vector<std::string> flags = kernel_file_flags(toolchain);
  // The compiler's path and the headers' version (this kbench's build) belong to the key too: a
  // new nvcc or new inline code in kbench/*.hpp under the same API version must rebuild.
  std::vector<std::string> key_inputs = flags;
  key_inputs.push_back(toolchain.nvcc);
  key_inputs.push_back(kbench_build_identity());
  const std::string key = kernel_cache_key(content.str(), KBENCH_API_VERSION, toolchain.architectures, key_inputs);
  const std::string stem = fs::path(path).stem().string();
  CompiledKernelFile compiled;
  compiled.library = cache_dir + "/" + stem + "-" + key + ".so";
  if (fs::is_regular_file(compiled.library, error)) {
    compiled.cached = true;
    return compiled;
  }
  fs::create_directories(cache_dir, error);
  if (error) throw InputError(path + ": cannot create the kernel cache '" + cache_dir + "': " + error.message());
  if (access(toolchain.nvcc.c_str(), X_OK) != 0) {
    throw InputError(path + ": cannot compile it: nvcc not found at " + toolchain.nvcc);
  }

  // nvcc writes a private file that is renamed into place: a concurrent kbench never loads half a library.
  const std::string partial = compiled.library + ".tmp" + std::to_string(getpid());
  const auto start = std::chrono::steady_clock::now();
  const int status = run_capturing(nvcc_command(toolchain, path, partial), diagnostics);
  compiled.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status != 0) {
    fs::remove(partial, error);
    throw InputError(path + ": does not compile (nvcc exit " + std::to_string(status) +
                     "; its messages are above)");
  }
  fs::rename(partial, compiled.library, error);
  if (error) throw InputError(path + ": cannot store the compiled library in '" + cache_dir + "': " + error.message());
  return compiled;
}

}  // namespace kbench
