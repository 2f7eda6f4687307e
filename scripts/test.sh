#!/usr/bin/env bash
# The test command: installs what is missing, fetches the sample assets, builds everything and runs
# every test suite (unit, stress, zero_alloc, example, end to end). Usage: scripts/test.sh [ctest args]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
if [ -x "$root/scripts/fetch_assets.sh" ]; then "$root/scripts/fetch_assets.sh"; fi
BUILD_DIR="${BUILD_DIR:-$root/build}" "$root/scripts/build.sh"
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure --timeout 300 -j2 "$@"
