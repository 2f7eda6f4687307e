# Debian packages through CPack (`cpack -G DEB` in a build tree; scripts/package.sh does it in its own
# Release tree). One package per install component (cmake/VgInstall.cmake):
#   libvisiongraph<major.minor>  runtime: the shared libraries, LICENSE, NOTICE
#   libvisiongraph-dev           dev: headers, link names, CMake package, pkg-config files
#   visiongraph                  cli: the visiongraph command, sample graphs, docs, man pages
#   python3-visiongraph          python3deb: the Python module (when VG_BUILD_PYTHON)
# Depends on system libraries come from dpkg-shlibdeps; between our packages they are exact versions.
if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()

set(CPACK_PACKAGE_NAME visiongraph)
set(CPACK_PACKAGE_VENDOR "the visiongraph authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's Description: CPACK_DEBIAN_<COMPONENT>_DESCRIPTION, first line the synopsis (no global summary,
# which CPack would put in front of it).
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_FILE_NAME visiongraph-${PROJECT_VERSION})  # fixes the staging path used below
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR "")

set(CPACK_COMPONENTS_ALL runtime dev cli)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_COMPONENT_CLI_DEPENDS runtime)
if(VG_BUILD_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python3deb)
  set(CPACK_COMPONENT_PYTHON3DEB_DEPENDS runtime)
endif()

if(CMAKE_CROSSCOMPILING)
  # CPack asks dpkg for the architecture, which is the build machine's. (Not verified: dpkg-shlibdeps
  # then needs the target's libraries installed through multiarch.)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE armhf)
  endif()
endif()

set(CPACK_DEBIAN_PACKAGE_MAINTAINER "the visiongraph authors <maintainers@visiongraph.invalid>")
set(CPACK_DEBIAN_PACKAGE_LICENSE Apache-2.0)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # dev and cli depend on runtime (= this version)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)   # shlibs + ldconfig trigger for the runtime package
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")  # 0.x: no ABI promise between versions

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libvisiongraph${VG_SOVERSION})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "edge-vision graphs of kernels on CPU and NPU targets (libraries)
visiongraph runs vision pipelines as graphs of kernels (OpenVX/TIOVX style): verified once, then run
frame after frame, pipelined across CPU and NPU targets, without heap allocations. This package has
the shared libraries: the core, YAML graph files, live input and video output, the control socket,
MQTT, the Rockchip NPU target, the detection and inference kernels, and the OpenVX C API
(libopenvx, libvxu; in progress, see docs/openvx.md).")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libvisiongraph-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "cmake, pkg-config")
set(CPACK_DEBIAN_DEV_DESCRIPTION "edge-vision graphs of kernels on CPU and NPU targets (development files)
Headers, the CMake package (find_package(visiongraph COMPONENTS yaml detection ...)) and one
pkg-config file per library (visiongraph, visiongraph-yaml, visiongraph-detection, ...).")
set(CPACK_DEBIAN_CLI_PACKAGE_NAME visiongraph)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION graphics)
# dpkg-shlibdeps finds the GStreamer libraries but not the plugins the default pipelines load at run time
# (uridecodebin, videoconvert, appsink: base; rtspsrc, souphttpsrc, v4l2src, mp4mux: good; decoders:
# libav; x264enc: ugly; h264parse: bad). Without them a bare board fails with "no element ...".
# `visiongraph doctor` lists each element and its package.
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "gstreamer1.0-plugins-base, gstreamer1.0-plugins-good")
set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS "gstreamer1.0-libav, gstreamer1.0-plugins-ugly, gstreamer1.0-plugins-bad")
set(CPACK_DEBIAN_CLI_DESCRIPTION "edge-vision graphs of kernels on CPU and NPU targets (command)
The visiongraph command runs, verifies and inspects graph files (YAML), sends commands to running
graphs, and its doctor subcommand reports the NPU, its runtime, the DMA heaps and the OpenCV build.")

# python3-visiongraph: the module for Debian's python3 (the minor version it was built for: the extension's
# file name carries it), numpy for the arrays it returns.
set(CPACK_DEBIAN_PYTHON3DEB_PACKAGE_NAME python3-visiongraph)
set(CPACK_DEBIAN_PYTHON3DEB_PACKAGE_SECTION python)
if(VG_BUILD_PYTHON)
  math(EXPR _vg_py_next "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PYTHON3DEB_PACKAGE_DEPENDS
      "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}~), python3 (<< ${Python3_VERSION_MAJOR}.${_vg_py_next}), python3-numpy")
endif()
set(CPACK_DEBIAN_PYTHON3DEB_DESCRIPTION "edge-vision graphs of kernels on CPU and NPU targets (Python module)
The visiongraph module loads, verifies and runs graph files from Python, with frames and results as
numpy arrays, and sends commands to their nodes (docs/python.md).")

# dpkg-shlibdeps on the command must see our libraries, which sit in the runtime package's staging tree;
# the path is only known when cpack runs (cpack -B moves it), hence the project config file.
set(VG_CPACK_RUNTIME_LIBDIR ${CMAKE_INSTALL_LIBDIR})
configure_file(${PROJECT_SOURCE_DIR}/cmake/VgCPackProject.cmake.in ${PROJECT_BINARY_DIR}/VgCPackProject.cmake @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/VgCPackProject.cmake)

include(CPack)
