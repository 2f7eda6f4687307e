#!/usr/bin/env bash
# check_exports.sh LIBRARY FUNCTION_LIST PATTERN
# The library must export exactly the functions of FUNCTION_LIST that match PATTERN (a grep -E regex),
# and nothing else: every declared function links, and no internal symbol leaks.
set -euo pipefail
lib="$1" list="$2" pattern="$3"
expected="$(grep -E "$pattern" "$list" | sort -u)"
exported="$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWiV]$/ {print $3}' | sed 's/@.*//' | sort -u)"
missing="$(comm -23 <(echo "$expected") <(echo "$exported"))"
extra="$(comm -13 <(echo "$expected") <(echo "$exported"))"
status=0
if [ -n "$missing" ]; then
  echo "$lib does not export $(echo "$missing" | wc -l) declared function(s):"; echo "$missing" | sed 's/^/  /'; status=1
fi
if [ -n "$extra" ]; then
  echo "$lib exports $(echo "$extra" | wc -l) symbol(s) that are not declared API:"; echo "$extra" | sed 's/^/  /'; status=1
fi
[ $status -eq 0 ] && echo "$lib: exports exactly the $(echo "$expected" | wc -l) declared functions"
exit $status
