#!/usr/bin/env bash
# Builds the core (framework, example kernels, core tests) and the live-input library twice more, under
# ASan+UBSan and under TSan, with assert() live (no NDEBUG), and runs the core suites and the lease
# accounting suite and the OpenVX API suites in each, then the NPU replica / async / verify-check suites.
# Usage: scripts/test_sanitizers.sh [address|thread]...
set -euo pipefail
# -O1 -g1 (line tables) rather than RelWithDebInfo's -O2 -g: what the sanitizers' own docs advise for
# usable reports, and GoogleTest files compile 2-5x faster with it (a test file took 49 s at -O2 -g
# under ASan, 21 s at -O1 -g1), which keeps CI inside its time budget.
san_flags=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1")
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(address thread)
for kind in "${kinds[@]}"; do
  case "$kind" in
    address) flags="address,undefined" ;;
    thread) flags="thread" ;;
    *) echo "unknown sanitizer '$kind' (address|thread)" >&2; exit 2 ;;
  esac
  build="$root/build-$kind"
  echo "== core tests under $flags =="
  BUILD_TYPE=RelWithDebInfo BUILD_DIR="$build" "$root/scripts/build.sh" "${san_flags[@]}" \
    -DVG_SANITIZE="$flags" -DVG_ASSERTIONS=ON -DVG_BUILD_KERNELS=OFF -DVG_BUILD_NPU=OFF \
    -DVG_BUILD_APPS=OFF -DVG_BUILD_YAML=OFF -DVG_BUILD_BENCHMARKS=OFF -DVG_BUILD_IO=ON -DVG_BUILD_MQTT=OFF \
    -DVG_BUILD_SERVICE=OFF
  # The OpenVX fuzz test (test_openvx_fuzz) runs a minute under ASan+UBSan, its default few seconds under TSan.
  fuzz_seconds=5
  [ "$kind" = address ] && fuzz_seconds=60
  (cd "$build" && \
   ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 VG_FUZZ_SECONDS="$fuzz_seconds" \
   ctest -L 'core|lease|openvx' --output-on-failure --timeout 300 -j2)
  # The NPU suites with several threads of their own (replicas on three targets, asynchronous runs and
  # their fence thread, recovery after a timeout) against the stand-in runtime: a third tree, since they
  # need the inference kernel, and only their targets are built.
  echo "== NPU replica, async and verify-check suites under $flags =="
  TARGETS="test_npu_replicas test_npu_async test_npu_verify_checks fake_rknnrt fake_rknnrt_old" \
  BUILD_TYPE=RelWithDebInfo BUILD_DIR="$build-npu" "$root/scripts/build.sh" "${san_flags[@]}" \
    -DVG_SANITIZE="$flags" -DVG_ASSERTIONS=ON -DVG_BUILD_KERNELS=ON -DVG_BUILD_NPU=ON \
    -DVG_BUILD_APPS=OFF -DVG_BUILD_YAML=OFF -DVG_BUILD_BENCHMARKS=OFF -DVG_BUILD_IO=ON -DVG_BUILD_MQTT=OFF \
    -DVG_BUILD_SERVICE=OFF -DVG_BUILD_OPENVX=OFF
  (cd "$build-npu" && \
   ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
   ctest -R '^test_npu_(replicas|async|verify_checks)$' --output-on-failure --timeout 300 -j2)
done
