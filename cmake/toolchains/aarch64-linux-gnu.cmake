# Cross toolchain: 64-bit ARM Linux (RK3588 and other Rockchip aarch64 boards), Debian's
# crossbuild-essential-arm64. Usage: scripts/cross_build.sh arm64 (docs/cross-build.md).
set(VG_CROSS_TRIPLET aarch64-linux-gnu)
set(VG_CROSS_PROCESSOR aarch64)
set(VG_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
