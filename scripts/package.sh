#!/usr/bin/env bash
# Builds the Debian packages (docs/install.md): libvisiongraph<major.minor> (shared libraries),
# libvisiongraph-dev (headers, CMake package, pkg-config files) and visiongraph (the command).
#
#   scripts/package.sh [OUTPUT_DIR]       default: <BUILD_DIR>/packages
#
# Configures and builds its own tree (BUILD_DIR, default build-package): Release, prefix /usr (so the
# libraries go to the multiarch directory, e.g. /usr/lib/x86_64-linux-gnu), no tests, benchmarks or
# Python module. Then `cpack -G DEB`: Depends on system libraries come from dpkg-shlibdeps. Prints the
# paths of the .deb files, one per line, on standard output.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-package}"
out="${1:-$build/packages}"

"$root/scripts/setup.sh" >&2
BUILD_DIR="$build" BUILD_TYPE=Release "$root/scripts/build.sh" -DCMAKE_INSTALL_PREFIX=/usr \
  -DVG_BUILD_TESTS=OFF -DVG_BUILD_BENCHMARKS=OFF -DVG_BUILD_PYTHON=ON \
  -DVG_BUILD_APPS=ON -DVG_BUILD_KERNELS=ON -DVG_BUILD_NPU=ON -DVG_BUILD_YAML=ON -DVG_BUILD_IO=ON \
  -DVG_BUILD_MQTT=ON -DVG_BUILD_SERVICE=ON -DVG_SANITIZE= -DVG_ASSERTIONS=OFF >&2

mkdir -p "$out"
rm -f "$out"/*.deb
(cd "$build" && cpack -G DEB -B "$out" >&2)
rm -rf "$out/_CPack_Packages"
ls "$out"/*.deb
