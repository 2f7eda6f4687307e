#!/usr/bin/env bash
# check_man_pages.sh MAN_DIR VISIONGRAPH: every page exists, man renders it without a warning, and each long
# option the subcommand's --help lists appears in its page (the pages come from --help, so a mismatch means
# a stale or broken page).
set -euo pipefail
man_dir="$1"
cli="$2"
command -v man >/dev/null || { echo "check_man_pages: man is not installed (scripts/setup.sh: man-db)" >&2; exit 1; }
failures=0
for sub in "" run verify dot kernels doctor ctl; do
  page="$man_dir/visiongraph${sub:+-$sub}.1.gz"
  if [ ! -f "$page" ]; then
    echo "check_man_pages: missing $page" >&2
    failures=$((failures + 1))
    continue
  fi
  warnings="$(LC_ALL=C MANWIDTH=200 man --warnings -l "$page" 2>&1 >/dev/null || true)"
  if [ -n "$warnings" ]; then
    echo "check_man_pages: $page: $warnings" >&2
    failures=$((failures + 1))
  fi
  text="$(LC_ALL=C MANWIDTH=200 man -l "$page" 2>/dev/null)"
  # shellcheck disable=SC2086
  options="$("$cli" $sub --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)"
  for option in $options; do
    if ! grep -q -- "$option" <<<"$text"; then
      echo "check_man_pages: $page lacks $option" >&2
      failures=$((failures + 1))
    fi
  done
  title="$(zcat "$page" | sed -n 's/^\.TH \([^ ]*\) .*/\1/p')"
  expected="$(echo "visiongraph${sub:+-$sub}" | tr a-z A-Z)"
  [ "$title" = "$expected" ] || { echo "check_man_pages: $page is titled '$title', not $expected" >&2; failures=$((failures + 1)); }
  echo "check_man_pages: $(basename "$page"): $(wc -w <<<"$options") options"
done
[ "$failures" -eq 0 ] || { echo "check_man_pages: $failures problem(s)" >&2; exit 1; }
echo "check_man_pages: ok"
