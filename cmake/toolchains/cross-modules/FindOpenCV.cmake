# Cross builds only (on CMAKE_MODULE_PATH through cmake/toolchains/debian-cross.cmake): finds the target's
# OpenCV modules without OpenCVConfig.cmake, which Debian ships only in the single-arch libopencv-dev.
# Creates the same imported targets as OpenCV's own config (opencv_core, opencv_imgproc, ...) for the
# requested COMPONENTS, from the per-module -dev packages (libopencv-core-dev:<arch>, ...).
include(FindPackageHandleStandardArgs)

# opencv2/core.hpp is architecture independent; cvconfig.h lives under include/<triplet>/opencv4.
find_path(OpenCV_INCLUDE_DIR opencv2/core.hpp PATH_SUFFIXES opencv4)
find_path(OpenCV_ARCH_INCLUDE_DIR opencv2/cvconfig.h PATH_SUFFIXES opencv4)
if(OpenCV_INCLUDE_DIR AND EXISTS ${OpenCV_INCLUDE_DIR}/opencv2/core/version.hpp)
  file(STRINGS ${OpenCV_INCLUDE_DIR}/opencv2/core/version.hpp _vg_cv_version_lines
       REGEX "^#define CV_VERSION_(MAJOR|MINOR|REVISION) +[0-9]+")
  foreach(_vg_part MAJOR MINOR REVISION)
    string(REGEX REPLACE ".*CV_VERSION_${_vg_part} +([0-9]+).*" "\\1" OpenCV_VERSION_${_vg_part}
           "${_vg_cv_version_lines}")
  endforeach()
  set(OpenCV_VERSION "${OpenCV_VERSION_MAJOR}.${OpenCV_VERSION_MINOR}.${OpenCV_VERSION_REVISION}")
endif()

set(OpenCV_LIBS "")
foreach(_vg_component IN LISTS OpenCV_FIND_COMPONENTS)
  find_library(OpenCV_${_vg_component}_LIBRARY opencv_${_vg_component})
  if(OpenCV_${_vg_component}_LIBRARY AND OpenCV_INCLUDE_DIR AND OpenCV_ARCH_INCLUDE_DIR)
    set(OpenCV_${_vg_component}_FOUND TRUE)
    if(NOT TARGET opencv_${_vg_component})
      add_library(opencv_${_vg_component} SHARED IMPORTED)
      set_target_properties(opencv_${_vg_component} PROPERTIES
        IMPORTED_LOCATION ${OpenCV_${_vg_component}_LIBRARY}
        INTERFACE_INCLUDE_DIRECTORIES "${OpenCV_INCLUDE_DIR};${OpenCV_ARCH_INCLUDE_DIR}")
    endif()
    list(APPEND OpenCV_LIBS opencv_${_vg_component})
  else()
    set(OpenCV_${_vg_component}_FOUND FALSE)
  endif()
endforeach()
set(OpenCV_INCLUDE_DIRS ${OpenCV_INCLUDE_DIR} ${OpenCV_ARCH_INCLUDE_DIR})

find_package_handle_standard_args(OpenCV
  REQUIRED_VARS OpenCV_INCLUDE_DIR OpenCV_ARCH_INCLUDE_DIR
  VERSION_VAR OpenCV_VERSION
  HANDLE_COMPONENTS)
