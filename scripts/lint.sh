#!/usr/bin/env bash
# Project rules that a compiler does not check (run by CTest as test_lint):
#  1. the per-frame hot path allocates nothing and never throws: no std::function, new, push_back,
#     std::string or throw in the files that run after verify;
#  2. every public header says what it is (/// @brief or /// @file);
#  3. no hard-coded DRM node: the NPU is found by driver name.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail=0
hot=(framework/src/graph/graph_run.cpp framework/src/runtime/target_loop.cpp framework/src/runtime/event.cpp)
for f in "${hot[@]}"; do
  [ -f "$root/$f" ] || continue
  if grep -nE 'std::function|[^_a-z]new [A-Za-z_]|push_back\(|emplace_back\(|std::string[^_v]|\bthrow\b' "$root/$f" \
       | grep -v '// lint: ok'; then
    echo "lint: $f: allocation or throw on the hot path (see lines above)" >&2
    fail=1
  fi
done
while IFS= read -r h; do
  if ! grep -qE '/// @(brief|file)' "$h"; then
    echo "lint: ${h#$root/}: public header without /// @brief or /// @file" >&2
    fail=1
  fi
done < <(find "$root/framework/include" "$root/framework/yaml/include" "$root/framework/io/include" "$root/kernels" "$root/targets" \
           -path '*/include/visiongraph/*' -name '*.hpp' 2>/dev/null)
if grep -rnE '"/dev/dri/(card|renderD)[0-9]+"' "$root/targets" "$root/kernels" 2>/dev/null; then
  echo "lint: hard-coded DRM node; find the NPU by driver name" >&2
  fail=1
fi
[ $fail -eq 0 ] && echo "lint: ok"
exit $fail
