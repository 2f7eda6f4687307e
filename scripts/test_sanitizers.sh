#!/usr/bin/env bash
# Builds the core (framework, example kernels, core tests), the live-input library, the OpenVX library and
# the NPU replica/async/verify-check/shared-model suites once more under ASan+UBSan and once under TSan, with assert()
# live (no NDEBUG), one tree per sanitizer, and runs those suites; under ASan+UBSan also the vision
# functions' suites (every SIMD path the CPU runs) and the OpenVX pixel-kernel tests.
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
    address) flags="address,undefined" kernel_tests=ON labels='core|lease|openvx|vision' ;;
    # TSan looks for races: the OpenVX pixel-kernel tests and the vision functions' suites are
    # single-threaded arithmetic (ASan runs them).
    thread) flags="thread" kernel_tests=OFF labels='core|lease|openvx' ;;
    *) echo "unknown sanitizer '$kind' (address|thread)" >&2; exit 2 ;;
  esac
  build="$root/build-$kind"
  echo "== core, lease, OpenVX and NPU replica/async/verify-check suites under $flags =="
  # One tree per sanitizer with the kernels and the NPU layer configured, but only the targets of the
  # suites below built: the framework is compiled once for both sets (two trees compiled it twice).
  # Ninja, because the targets below are many: make builds the goals of one call one after another
  # (CMake's top-level Makefile is .NOTPARALLEL), so their test files compiled on one core.
  if [ -f "$build/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$build/CMakeCache.txt"; then
    rm -rf "$build"
  fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${san_flags[@]}" \
    -DVG_SANITIZE="$flags" -DVG_ASSERTIONS=ON -DVG_BUILD_KERNELS=ON -DVG_BUILD_NPU=ON \
    -DVG_BUILD_APPS=OFF -DVG_BUILD_YAML=OFF -DVG_BUILD_BENCHMARKS=OFF -DVG_BUILD_IO=ON -DVG_BUILD_MQTT=OFF \
    -DVG_BUILD_SERVICE=OFF -DVG_OPENVX_KERNEL_TESTS="$kernel_tests" >/dev/null
  # The labelled suites' executables (a test whose name is not a target, e.g. a script, needs none), then
  # the NPU suites with several threads of their own (replicas on three targets, asynchronous runs and their
  # fence thread, recovery after a timeout) and the stand-in runtimes they load.
  mapfile -t all_targets < <(ninja -C "$build" -t targets all | sed -n 's/^\([A-Za-z0-9_.+-]*\): .*/\1/p')
  targets=(test_npu_replicas test_npu_async test_npu_verify_checks test_npu_shared_model fake_rknnrt fake_rknnrt_old)
  while read -r name; do
    for t in "${all_targets[@]}"; do [ "$t" = "$name" ] && targets+=("$name") && break; done
  done < <(cd "$build" && ctest -N -L "$labels" | sed -n 's/^ *Test *#[0-9]*: //p')
  cmake --build "$build" -j"${JOBS:-2}" --target "${targets[@]}"
  # The OpenVX fuzz test (test_openvx_fuzz) runs 20 s under ASan+UBSan, a few seconds under TSan.
  fuzz_seconds=5
  [ "$kind" = address ] && fuzz_seconds=20
  (cd "$build" && \
   ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 VG_FUZZ_SECONDS="$fuzz_seconds" \
   ctest -L "$labels" --output-on-failure --timeout 300 -j2 && \
   ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
   ctest -R '^test_npu_(replicas|async|verify_checks|shared_model)$' --output-on-failure --timeout 300 -j2)
done
