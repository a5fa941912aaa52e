# Every dependency is a system package: nothing is vendored or downloaded at configure time.
# scripts/setup.sh installs the Debian/Ubuntu packages named in the messages below.

find_package(CUDAToolkit 12.0 REQUIRED)
foreach(target IN ITEMS CUDA::cudart CUDA::cublas CUDA::cupti CUDA::nvtx3)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "kbench needs ${target} from the CUDA Toolkit, which CMake did not find "
                        "under ${CUDAToolkit_LIBRARY_ROOT}. Install the full CUDA Toolkit (13.x).")
  endif()
endforeach()

# cuDNN is optional: with it the softmax op's baseline is cuDNN's softmax (variant "cudnn"),
# without it the fused kernel stands in (variant "fused_reference"). CUDA 13 installs put it
# beside the toolkit; pass -DCUDNN_LIBRARY=CUDNN_LIBRARY-NOTFOUND to build without it.
find_path(CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
find_library(CUDNN_LIBRARY cudnn HINTS ${CUDAToolkit_LIBRARY_DIR})
if(CUDNN_INCLUDE_DIR AND CUDNN_LIBRARY)
  set(KBENCH_HAVE_CUDNN ON)
  message(STATUS "cuDNN found (${CUDNN_LIBRARY}): the softmax baseline is cuDNN's softmax")
else()
  set(KBENCH_HAVE_CUDNN OFF)
  message(STATUS "cuDNN not found (cudnn.h: ${CUDNN_INCLUDE_DIR}, libcudnn: ${CUDNN_LIBRARY}): "
                 "the softmax baseline is the fused reference kernel")
endif()

macro(kbench_require_package name debian_package)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "kbench needs ${name} (Debian/Ubuntu package '${debian_package}'). "
                        "Run scripts/setup.sh, or: apt-get install ${debian_package}")
  endif()
endmacro()

kbench_require_package(CLI11 libcli11-dev)
kbench_require_package(nlohmann_json nlohmann-json3-dev)
kbench_require_package(fmt libfmt-dev)
if(KBENCH_BUILD_TESTS)
  kbench_require_package(Catch2 catch2)
endif()

# fmt is used header-only so that the kbench binary needs no libfmt at run time.
if(NOT TARGET fmt::fmt-header-only)
  message(FATAL_ERROR "The installed fmt package has no fmt::fmt-header-only target.")
endif()

# Compiler settings shared by every kbench target.
function(kbench_target_defaults target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
    # -lineinfo maps SASS to source lines for Nsight Compute at no run-time cost.
    $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall>)
  set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  if(KBENCH_SANITIZE)
    # Host C++ only: nvcc compiles the .cu files as usual. Every report is fatal (no recovery);
    # -O1 (after the build type's -O3) compiles several times faster with the sanitizers and keeps
    # their reports exact, and -g1 gives them file and line numbers. Link options matter for the
    # executables only (static libraries are not linked on their own).
    set(sanitize -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${sanitize} -O1 -g1>)
    target_link_options(${target} PRIVATE ${sanitize})
  endif()
endfunction()
