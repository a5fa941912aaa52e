# Build provenance compiled into the binary and copied into every results file. The git commit
# and dirty flag are read at every build (not only at configure time), so a rebuilt binary never
# claims an older commit; the generated file is rewritten only when its content changes.
find_package(Git QUIET)

string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type_upper)
if(build_type_upper MATCHES "^(RELEASE|RELWITHDEBINFO|MINSIZEREL)$")
  set(KBENCH_OPTIMIZED 1)
else()
  set(KBENCH_OPTIMIZED 0)
endif()
string(REPLACE ";" "," KBENCH_CUDA_ARCHITECTURES_STRING "${CMAKE_CUDA_ARCHITECTURES}")

set(KBENCH_BUILD_INFO_CPP "${PROJECT_BINARY_DIR}/generated/build_info.cpp")
add_custom_target(kbench_build_info
  COMMAND "${CMAKE_COMMAND}"
          "-DGIT_EXECUTABLE=${GIT_EXECUTABLE}"
          "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
          "-DOUTPUT=${KBENCH_BUILD_INFO_CPP}"
          "-DPROJECT_VERSION=${PROJECT_VERSION}"
          "-DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}"
          "-DKBENCH_OPTIMIZED=${KBENCH_OPTIMIZED}"
          "-DKBENCH_CUDA_ARCHITECTURES_STRING=${KBENCH_CUDA_ARCHITECTURES_STRING}"
          "-DCMAKE_CXX_COMPILER_ID=${CMAKE_CXX_COMPILER_ID}"
          "-DCMAKE_CXX_COMPILER_VERSION=${CMAKE_CXX_COMPILER_VERSION}"
          "-DCMAKE_CUDA_COMPILER_ID=${CMAKE_CUDA_COMPILER_ID}"
          "-DCMAKE_CUDA_COMPILER_VERSION=${CMAKE_CUDA_COMPILER_VERSION}"
          -P "${PROJECT_SOURCE_DIR}/cmake/KbenchWriteBuildInfo.cmake"
  BYPRODUCTS "${KBENCH_BUILD_INFO_CPP}"
  COMMENT "Reading the git commit for build_info.cpp"
  VERBATIM)
