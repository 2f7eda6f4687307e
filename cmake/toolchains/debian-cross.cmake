# Shared part of the Debian cross toolchain files (aarch64-linux-gnu.cmake, arm-linux-gnueabihf.cmake):
# include it after setting VG_CROSS_TRIPLET and VG_CROSS_PROCESSOR. Used by scripts/cross_build.sh; see
# docs/cross-build.md.
#
# Two ways to find the target's libraries:
#   multiarch (default): Debian's <triplet> packages installed beside the amd64 ones (/usr/lib/<triplet>).
#   sysroot: -DVG_CROSS_SYSROOT=<dir>, a directory holding the target's .deb files unpacked (the script
#            builds one when the target's multiarch packages cannot be installed on this machine).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${VG_CROSS_PROCESSOR})
set(CMAKE_C_COMPILER ${VG_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${VG_CROSS_TRIPLET}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${VG_CROSS_TRIPLET})

# try_compile projects re-read this file; hand them the sysroot choice too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES VG_CROSS_SYSROOT)

if(VG_CROSS_SYSROOT)
  set(CMAKE_SYSROOT ${VG_CROSS_SYSROOT})
  set(_vg_cross_root ${VG_CROSS_SYSROOT})
else()
  set(_vg_cross_root "")
endif()

# Programs (pkg-config, sh) come from the build machine; libraries, headers and packages only from the
# target's directories. The multiarch layout keeps them apart by <triplet> subdirectories.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config must read the target's .pc files only (libdrm, libmosquitto), never the build machine's.
set(ENV{PKG_CONFIG_LIBDIR}
    "${_vg_cross_root}/usr/lib/${VG_CROSS_TRIPLET}/pkgconfig:${_vg_cross_root}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
if(VG_CROSS_SYSROOT)
  set(ENV{PKG_CONFIG_SYSROOT_DIR} ${VG_CROSS_SYSROOT})
endif()

# Debian ships no OpenCVConfig.cmake for a foreign architecture (it is in libopencv-dev, which does not
# co-install), and libyaml-cpp-dev is single-arch: small find modules stand in for both (cross builds only).
list(PREPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}/cross-modules)

# Tests run under user-mode QEMU; CTest prefixes every test executable with this.
if(VG_CROSS_SYSROOT)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${VG_CROSS_QEMU} -L ${VG_CROSS_SYSROOT})
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR ${VG_CROSS_QEMU})
endif()
