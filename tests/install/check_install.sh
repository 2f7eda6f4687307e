#!/usr/bin/env bash
# Installs the build tree's framework into a scratch prefix and builds a consumer with find_package.
set -euo pipefail
build="$1"; source="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component Unspecified >/dev/null
cmake -S "$source/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/consumer/consumer"
