# `cmake --install`: every library of the build with its public headers, the visiongraph command, a CMake
# package with one component per library (find_package(visiongraph COMPONENTS yaml detection ...)) and one
# pkg-config file per library. Install components, also used by the Debian packages (cmake/VgPackaging.cmake):
#   runtime  shared libraries, LICENSE and NOTICE
#   dev      headers, the libvisiongraph*.so link names, CMake package, pkg-config files
#   cli      the visiongraph command
# What it gives and how to use it: docs/install.md.
include(CMakePackageConfigHelpers)

set(VG_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/visiongraph)
set(VG_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# 0.x releases may change the ABI in every minor version, so the soname carries major.minor.
set(VG_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})

# Installed binaries find the libraries relative to themselves (RUNPATH), so an install prefix can be moved
# or unpacked anywhere. Libraries: their siblings; the command: bin/ -> lib/ (e.g. ../lib/x86_64-linux-gnu).
file(RELATIVE_PATH _vg_bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
foreach(_dir LIBDIR INCLUDEDIR)  # pkg-config paths, relative to ${prefix} unless given absolute
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(VG_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(VG_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()

set(VG_INSTALLED_COMPONENTS "")  # in dependency order: a component only needs components before it
set(VG_COMPONENT_REQUIRES "")    # lines of visiongraphConfig.cmake: set(_vg_requires_<c> ...)

# vg_install_component(NAME TARGETS lib... INCLUDE_DIR dir REQUIRES component... DESCRIPTION text
#                      [HEADERS subdir] [PC_NAME name])
# Installs one component when its first target is part of the build: the libraries (export set
# visiongraph-NAME-targets, imported as visiongraph::<EXPORT_NAME>), INCLUDE_DIR/<HEADERS> (default
# visiongraph), and a pkg-config file (PC_NAME, else visiongraph.pc for the core, visiongraph-NAME.pc
# otherwise) listing every library.
function(vg_install_component name)
  cmake_parse_arguments(C "" "INCLUDE_DIR;DESCRIPTION;HEADERS;PC_NAME" "TARGETS;REQUIRES" ${ARGN})
  if(NOT C_HEADERS)
    set(C_HEADERS visiongraph)
  endif()
  list(GET C_TARGETS 0 _first)
  if(NOT TARGET ${_first})
    return()
  endif()
  set(_libs "")
  foreach(t IN LISTS C_TARGETS)
    get_target_property(_type ${t} TYPE)
    if(NOT _type STREQUAL "SHARED_LIBRARY")
      message(FATAL_ERROR "VgInstall: ${t} (component ${name}) is ${_type}; installed libraries are shared")
    endif()
    set_target_properties(${t} PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${VG_SOVERSION}
                                          INSTALL_RPATH "$ORIGIN")
    get_target_property(_output ${t} OUTPUT_NAME)
    if(NOT _output)
      message(FATAL_ERROR "VgInstall: ${t} has no OUTPUT_NAME (libvisiongraph_<name>)")
    endif()
    string(APPEND _libs " -l${_output}")
  endforeach()
  install(TARGETS ${C_TARGETS} EXPORT visiongraph-${name}-targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${C_INCLUDE_DIR}/${C_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.inl")
  install(EXPORT visiongraph-${name}-targets NAMESPACE visiongraph:: DESTINATION ${VG_INSTALL_CMAKEDIR}
          FILE visiongraph-${name}-targets.cmake COMPONENT dev)
  # The build tree is a package too: find_package(visiongraph) with visiongraph_DIR=<build dir> imports
  # the libraries where the build made them (no install needed to try an application).
  export(EXPORT visiongraph-${name}-targets NAMESPACE visiongraph::
         FILE ${PROJECT_BINARY_DIR}/visiongraph-${name}-targets.cmake)

  # Transitive closure of REQUIRES, in install order (every required component was declared before).
  set(_closure "")
  foreach(r IN LISTS C_REQUIRES)
    if(NOT r IN_LIST VG_INSTALLED_COMPONENTS)
      message(FATAL_ERROR "VgInstall: component ${name} requires ${r}, which is not installed")
    endif()
    list(APPEND _closure ${_vg_closure_${r}} ${r})
  endforeach()
  list(REMOVE_DUPLICATES _closure)
  set(_ordered "")
  foreach(c IN LISTS VG_INSTALLED_COMPONENTS)
    if(c IN_LIST _closure)
      list(APPEND _ordered ${c})
    endif()
  endforeach()
  set(_vg_closure_${name} ${_ordered} PARENT_SCOPE)
  set(VG_COMPONENT_REQUIRES "${VG_COMPONENT_REQUIRES}set(_vg_requires_${name} ${_ordered})\n" PARENT_SCOPE)
  set(VG_INSTALLED_COMPONENTS ${VG_INSTALLED_COMPONENTS} ${name} PARENT_SCOPE)

  # pkg-config: the prefix is written at install time, so `cmake --install --prefix DIR` and the packages
  # (prefix /usr) both get exact paths.
  if(name STREQUAL "framework")
    set(VG_PC_NAME visiongraph)
    set(VG_PC_REQUIRES "")
    set(VG_PC_LIBS_PRIVATE "Libs.private: -pthread")  # Threads::Threads and dlopen, as the CMake target
    if(CMAKE_DL_LIBS)
      string(APPEND VG_PC_LIBS_PRIVATE " -l${CMAKE_DL_LIBS}")
    endif()
  else()
    set(VG_PC_NAME visiongraph-${name})
    set(_req "")
    foreach(r IN LISTS _ordered)
      if(r STREQUAL "framework")
        list(APPEND _req "visiongraph = ${PROJECT_VERSION}")
      else()
        list(APPEND _req "visiongraph-${r} = ${PROJECT_VERSION}")
      endif()
    endforeach()
    list(JOIN _req ", " _req)
    set(VG_PC_REQUIRES "Requires: ${_req}")
    set(VG_PC_LIBS_PRIVATE "")
  endif()
  if(C_PC_NAME)
    set(VG_PC_NAME ${C_PC_NAME})
  endif()
  set(VG_PC_DESCRIPTION "${C_DESCRIPTION}")
  set(VG_PC_LIBS "${_libs}")
  set(VG_PC_PREFIX "@VG_PC_PREFIX@")  # left for the install step
  set(VG_PC_RPATH "@VG_PC_RPATH@")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/visiongraph.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${VG_PC_NAME}.pc.in @ONLY)
  # Outside /usr and /usr/local the dynamic loader does not look in libdir: the link flags then carry
  # -Wl,-rpath so that `cc app.c $(pkg-config --cflags --libs ...)` makes a program that runs as built.
  install(CODE "set(VG_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(VG_PC_RPATH \"\")
    if(NOT VG_PC_PREFIX STREQUAL \"/usr\" AND NOT VG_PC_PREFIX STREQUAL \"/usr/local\")
      set(VG_PC_RPATH \" -Wl,-rpath,\\\${libdir}\")
    endif()
    configure_file(\"${PROJECT_BINARY_DIR}/pkgconfig/${VG_PC_NAME}.pc.in\"
                   \"${PROJECT_BINARY_DIR}/pkgconfig/install/${VG_PC_NAME}.pc\" @ONLY)" COMPONENT dev)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/install/${VG_PC_NAME}.pc DESTINATION ${VG_INSTALL_PKGCONFIGDIR}
          COMPONENT dev)
endfunction()

set(_vg_npu_component "")
if(TARGET vg_npu)
  set(_vg_npu_component npu)  # the inference backends link the NPU layer when it is built
endif()
vg_install_component(framework TARGETS vg_framework INCLUDE_DIR ${PROJECT_SOURCE_DIR}/framework/include
                     DESCRIPTION "visiongraph: vision graphs of kernels on CPU and NPU targets, the core")
vg_install_component(yaml TARGETS vg_yaml INCLUDE_DIR ${PROJECT_SOURCE_DIR}/framework/yaml/include
                     REQUIRES framework DESCRIPTION "visiongraph: graphs from YAML files")
vg_install_component(io TARGETS vg_io INCLUDE_DIR ${PROJECT_SOURCE_DIR}/framework/io/include
                     REQUIRES framework DESCRIPTION "visiongraph: live input and video output (GStreamer)")
vg_install_component(service TARGETS vg_service INCLUDE_DIR ${PROJECT_SOURCE_DIR}/framework/service/include
                     REQUIRES framework DESCRIPTION "visiongraph: control socket for running graphs")
vg_install_component(mqtt TARGETS vg_mqtt INCLUDE_DIR ${PROJECT_SOURCE_DIR}/framework/mqtt/include
                     REQUIRES framework DESCRIPTION "visiongraph: results and commands over MQTT")
vg_install_component(npu TARGETS vg_npu INCLUDE_DIR ${PROJECT_SOURCE_DIR}/targets/npu/include
                     REQUIRES framework DESCRIPTION "visiongraph: Rockchip NPU target, DMA-BUF allocators, doctor")
vg_install_component(detection TARGETS vg_kernels_detection vg_detection_algo
                     INCLUDE_DIR ${PROJECT_SOURCE_DIR}/kernels/detection/include
                     REQUIRES framework DESCRIPTION "visiongraph: detection kernels (letterbox, decode + NMS, overlay)")
vg_install_component(inference TARGETS vg_kernels_inference vg_inference_backends
                     INCLUDE_DIR ${PROJECT_SOURCE_DIR}/kernels/inference/include
                     REQUIRES framework ${_vg_npu_component}
                     DESCRIPTION "visiongraph: inference kernel (OpenCV DNN, Rockchip librknnrt)")
vg_install_component(vision TARGETS vg_kernels_vision INCLUDE_DIR ${PROJECT_SOURCE_DIR}/kernels/vision/include
                     REQUIRES framework
                     DESCRIPTION "visiongraph: OpenVX's vision functions as kernels (Highway SIMD)")
vg_install_component(rga TARGETS vg_kernels_rga INCLUDE_DIR ${PROJECT_SOURCE_DIR}/kernels/rga/include
                     REQUIRES framework npu detection
                     DESCRIPTION "visiongraph: letterboxing on Rockchip's RGA (librga loaded at run time)")
vg_install_component(openvx TARGETS vg_openvx vg_vxu INCLUDE_DIR ${PROJECT_SOURCE_DIR}/framework/openvx/include
                     HEADERS VX PC_NAME openvx REQUIRES framework
                     DESCRIPTION "OpenVX 1.3 C API on visiongraph (libopenvx, libvxu)")

vg_install_component(runner TARGETS vg_runner INCLUDE_DIR ${PROJECT_SOURCE_DIR}/framework/runner/include
                     REQUIRES framework yaml mqtt
                     DESCRIPTION "visiongraph: running graph files over sources and streams (the run loop of visiongraph run)")

# The command: bin/visiongraph finds the libraries through RUNPATH $ORIGIN/<bin -> lib>.
if(TARGET visiongraph)
  set_target_properties(visiongraph PROPERTIES INSTALL_RPATH "$ORIGIN/${_vg_bin_to_lib}")
endif()

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/NOTICE DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT runtime)

# Every component name find_package may be asked for (to tell "not built here" from "no such component").
set(VG_KNOWN_COMPONENTS framework yaml io service mqtt npu detection inference vision rga openvx runner)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/visiongraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/visiongraphConfig.cmake INSTALL_DESTINATION ${VG_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/visiongraphConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/visiongraphConfig.cmake ${PROJECT_BINARY_DIR}/visiongraphConfigVersion.cmake
        DESTINATION ${VG_INSTALL_CMAKEDIR} COMPONENT dev)

include(VgPackaging)
