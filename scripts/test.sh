#!/usr/bin/env bash
# The test command: installs what is missing, fetches the sample assets, builds everything and runs
# every test suite (unit, stress, zero_alloc, example, end to end). Usage: scripts/test.sh [ctest args]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
if [ -x "$root/scripts/fetch_assets.sh" ]; then "$root/scripts/fetch_assets.sh"; fi
# Every option is explicit: the build tree may have been configured differently by another script.
BUILD_DIR="${BUILD_DIR:-$root/build}" "$root/scripts/build.sh" -DVG_BUILD_TESTS=ON -DVG_BUILD_BENCHMARKS=ON \
  -DVG_BUILD_APPS=ON -DVG_BUILD_KERNELS=ON -DVG_BUILD_NPU=ON -DVG_BUILD_YAML=ON -DVG_SANITIZE=
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure --timeout 300 -j2 "$@"
