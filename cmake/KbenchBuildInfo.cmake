# Build provenance compiled into the binary and copied into every results file.
find_package(Git QUIET)
set(KBENCH_GIT_COMMIT "unknown")
set(KBENCH_GIT_DIRTY "unknown")
if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse HEAD
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                  OUTPUT_VARIABLE KBENCH_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND "${GIT_EXECUTABLE}" status --porcelain --untracked-files=no
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                  OUTPUT_VARIABLE git_status OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(KBENCH_GIT_COMMIT STREQUAL "")
    set(KBENCH_GIT_COMMIT "unknown")
  elseif(git_status STREQUAL "")
    set(KBENCH_GIT_DIRTY "false")
  else()
    set(KBENCH_GIT_DIRTY "true")
  endif()
endif()

# A copy of the tree without .git (a lent GPU machine, say) can name its commit explicitly.
if(KBENCH_GIT_COMMIT STREQUAL "unknown" AND DEFINED ENV{KBENCH_GIT_COMMIT})
  set(KBENCH_GIT_COMMIT "$ENV{KBENCH_GIT_COMMIT}")
endif()

string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type_upper)
if(build_type_upper MATCHES "^(RELEASE|RELWITHDEBINFO|MINSIZEREL)$")
  set(KBENCH_OPTIMIZED 1)
else()
  set(KBENCH_OPTIMIZED 0)
endif()
string(REPLACE ";" "," KBENCH_CUDA_ARCHITECTURES_STRING "${CMAKE_CUDA_ARCHITECTURES}")

configure_file("${PROJECT_SOURCE_DIR}/harness/build_info.cpp.in"
               "${PROJECT_BINARY_DIR}/generated/build_info.cpp" @ONLY)
