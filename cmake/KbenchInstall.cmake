# `cmake --install build --prefix PREFIX`: the kbench binary (bin/), its configs and thresholds
# (share/kbench/configs, found from the binary: apps/kbench/source_paths.cpp), the public headers
# (include/kbench) and the CMake package for plugins (lib/cmake/kbench: kbench::api,
# kbench_add_plugin, KBENCH_EXECUTABLE).
include(CMakePackageConfigHelpers)

# The plugin API: the public headers and the CUDA runtime's (kbenchConfig.cmake adds those where
# the package is found; here, for plugins built inside this tree).
add_library(kbench_api INTERFACE)
add_library(kbench::api ALIAS kbench_api)
target_include_directories(kbench_api INTERFACE
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>"
  "$<BUILD_INTERFACE:${CUDAToolkit_INCLUDE_DIRS}>"
  "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
set_target_properties(kbench_api PROPERTIES EXPORT_NAME api)

install(TARGETS kbench_api EXPORT kbenchTargets)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/kbench" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/configs/" DESTINATION "${CMAKE_INSTALL_DATADIR}/kbench/configs"
        FILES_MATCHING PATTERN "*.json" PATTERN "*.md")

set(package_dir "${CMAKE_INSTALL_LIBDIR}/cmake/kbench")
file(STRINGS "${PROJECT_SOURCE_DIR}/include/kbench/version.hpp" api_line REGEX "^#define KBENCH_API_VERSION ")
string(REGEX REPLACE "^#define KBENCH_API_VERSION ([0-9]+).*" "\\1" KBENCH_API_VERSION "${api_line}")
install(EXPORT kbenchTargets NAMESPACE kbench:: DESTINATION "${package_dir}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/kbenchConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/kbenchConfig.cmake"
  INSTALL_DESTINATION "${package_dir}" PATH_VARS CMAKE_INSTALL_BINDIR)
# A plugin speaks one plugin API version: the package version's major.minor must match.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/kbenchConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/kbenchConfig.cmake" "${PROJECT_BINARY_DIR}/kbenchConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/kbenchPlugin.cmake"
        DESTINATION "${package_dir}")
