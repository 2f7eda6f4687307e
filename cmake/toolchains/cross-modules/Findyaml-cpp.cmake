# Cross builds only (on CMAKE_MODULE_PATH through cmake/toolchains/debian-cross.cmake): finds the target's
# yaml-cpp. libyaml-cpp-dev is single-arch in Debian 12 (it does not co-install beside the amd64 one),
# but its headers are architecture independent and the shared library (libyaml-cpp0.7:<arch>) is
# multiarch, so the build machine's headers are used with the target's library. In a sysroot both come
# from the target's own packages. Creates the imported target yaml-cpp, like yaml-cpp's own config.
include(FindPackageHandleStandardArgs)

find_path(yaml-cpp_INCLUDE_DIR yaml-cpp/yaml.h)
# Without the -dev package only the versioned file exists (libyaml-cpp.so.0.7 in Debian 12).
find_library(yaml-cpp_LIBRARY NAMES yaml-cpp libyaml-cpp.so.0.8 libyaml-cpp.so.0.7)

find_package_handle_standard_args(yaml-cpp REQUIRED_VARS yaml-cpp_LIBRARY yaml-cpp_INCLUDE_DIR)
if(yaml-cpp_FOUND AND NOT TARGET yaml-cpp)
  add_library(yaml-cpp SHARED IMPORTED)
  set_target_properties(yaml-cpp PROPERTIES
    IMPORTED_LOCATION ${yaml-cpp_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${yaml-cpp_INCLUDE_DIR})
endif()
