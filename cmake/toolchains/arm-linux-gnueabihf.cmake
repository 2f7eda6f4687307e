# Cross toolchain: 32-bit ARM Linux, hard-float EABI (RV1106-class boards), Debian's
# crossbuild-essential-armhf. Usage: scripts/cross_build.sh armhf (docs/cross-build.md).
set(VG_CROSS_TRIPLET arm-linux-gnueabihf)
set(VG_CROSS_PROCESSOR armv7l)
set(VG_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
