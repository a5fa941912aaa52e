# Script mode (cmake -P): writes OUTPUT from harness/device/build_info.cpp.in with the current commit.
set(KBENCH_GIT_COMMIT "unknown")
set(KBENCH_GIT_DIRTY "unknown")
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse HEAD
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(commit MATCHES "^[0-9a-f]+$")  # not so before the first commit
    set(KBENCH_GIT_COMMIT "${commit}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" status --porcelain --untracked-files=no
                    WORKING_DIRECTORY "${SOURCE_DIR}"
                    OUTPUT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(status STREQUAL "")
      set(KBENCH_GIT_DIRTY "false")
    else()
      set(KBENCH_GIT_DIRTY "true")
    endif()
  endif()
endif()
# A copy of the tree whose .git is missing or is not the source's (a lent GPU machine, say) names
# its commit, and whether the tracked files differ from it, through the environment; these win
# over what git says there.
if("$ENV{KBENCH_GIT_COMMIT}" MATCHES "^[0-9a-f]+$")
  set(KBENCH_GIT_COMMIT "$ENV{KBENCH_GIT_COMMIT}")
  set(KBENCH_GIT_DIRTY "unknown")
  if("$ENV{KBENCH_GIT_DIRTY}" MATCHES "^(true|false)$")
    set(KBENCH_GIT_DIRTY "$ENV{KBENCH_GIT_DIRTY}")
  endif()
endif()
configure_file("${SOURCE_DIR}/harness/device/build_info.cpp.in" "${OUTPUT}" @ONLY)
