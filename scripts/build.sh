#!/usr/bin/env bash
# Configure and build visiongraph into BUILD_DIR (default: build). Extra arguments go to cmake.
# Release by default: the scripts' builds are for running, and debug info doubles compile and link
# time on small machines (developers configure their own RelWithDebInfo/Debug trees).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-2}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "$@" >/dev/null
# TARGETS="a b" builds only those targets (the main job needs just the visiongraph command).
cmake --build "$build" -j"$jobs" ${TARGETS:+--target $TARGETS}
