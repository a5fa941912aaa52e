# kbench_add_plugin(NAME sources...): a plugin, libNAME.so, for `kbench --plugin`. Installed with
# the kbench package (kbenchConfig.cmake includes it).
#
# A MODULE library (loaded with dlopen, never linked against) of C++17 / CUDA C++17, built against
# kbench::api only. Its symbols are hidden but for the two entry points KBENCH_PLUGIN declares, so
# that two plugins' kernels of the same name never meet. The CUDA runtime is linked statically
# (CMake's default), so the plugin needs nothing at run time that kbench does not.
function(kbench_add_plugin name)
  if(NOT ARGN)
    message(FATAL_ERROR "kbench_add_plugin(${name}): give the plugin's sources")
  endif()
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE kbench::api)
  target_compile_features(${name} PRIVATE cxx_std_17)
  set_target_properties(${name} PROPERTIES
    PREFIX "lib" OUTPUT_NAME "${name}" SUFFIX ".so"
    CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
    CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON CUDA_EXTENSIONS OFF
    CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON)
endfunction()
