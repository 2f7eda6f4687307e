#!/usr/bin/env bash
# Installs the Debian packages with dpkg, runs the installed command (doctor, verify of the face graph),
# and removes the packages again, leaving the machine as it was. Run by .ci/run.
#
#   tests/install/check_debs.sh --build-dir DIR    package DIR (a built tree) with cpack into a temp dir
#   tests/install/check_debs.sh PKG.deb...         the given packages (e.g. from scripts/package.sh)
#
# Installs as root, or through `sudo -n`. Without either, or when a visiongraph package is already
# installed (that one is not touched), or with VG_DEBS_EXTRACT=1, the packages are unpacked with dpkg-deb -x into a temp root
# instead and the command runs from there, and the output says so. Assets for verify: VG_ASSETS_DIR,
# else <repo>/.cache/assets (scripts/fetch_assets.sh); verify is skipped, saying so, without them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
log() { echo "check_debs: $*"; }
fail() { echo "check_debs: FAILED: $*" >&2; exit 1; }

work="$(mktemp -d /tmp/vg-install-debs.XXXXXX)"
installed_names=()  # packages this script installed, removed again on exit
sudo=""
cleanup() {
  local status=$?
  if [ ${#installed_names[@]} -gt 0 ]; then
    log "removing ${installed_names[*]}"
    dpkg_locked --purge "${installed_names[@]}" >/dev/null || { echo "check_debs: could not remove ${installed_names[*]}" >&2; status=1; }
    for name in "${installed_names[@]}"; do
      if present "$name"; then
        echo "check_debs: $name is still installed" >&2
        status=1
      fi
    done
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT

# present NAME: dpkg knows the package in any state but not-installed (config-files, half-installed, ...).
present() {
  local state
  state="$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)"
  [ -n "$state" ] && [ "$state" != "not-installed" ]
}

# dpkg, waiting (at most 10 minutes) while another dpkg/apt holds the lock.
dpkg_locked() {
  local tries=0
  while :; do
    if $sudo dpkg "$@" 2>"$work/dpkg.err"; then return 0; fi
    if grep -qi "lock" "$work/dpkg.err" && [ $tries -lt 120 ]; then
      tries=$((tries + 1))
      sleep 5
      continue
    fi
    cat "$work/dpkg.err" >&2
    return 1
  done
}

# 1. The packages.
debs=()
if [ "${1:-}" = "--build-dir" ]; then
  [ -n "${2:-}" ] && [ -f "$2/CPackConfig.cmake" ] || fail "--build-dir needs a configured build tree (no $2/CPackConfig.cmake)"
  log "cpack -G DEB in $2"
  (cd "$2" && timeout 600 cpack -G DEB -B "$work/debs" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
  mapfile -t debs < <(ls "$work"/debs/*.deb)
else
  debs=("$@")
fi
[ ${#debs[@]} -eq 3 ] || [ ${#debs[@]} -eq 4 ] ||
  fail "expected 3 or 4 packages (runtime, -dev, command, and python3-visiongraph when built), got ${#debs[@]}: ${debs[*]}"
names=()
for deb in "${debs[@]}"; do
  [ -f "$deb" ] || fail "no such package file: $deb"
  names+=("$(dpkg-deb -f "$deb" Package)")
  log "$(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"
done
cli_deb=""
for deb in "${debs[@]}"; do
  [ "$(dpkg-deb -f "$deb" Package)" = visiongraph ] && cli_deb="$deb"
done
[ -n "$cli_deb" ] || fail "no package named visiongraph among ${names[*]}"
# The command's package names the GStreamer plugin packages its default pipelines load (a bare board
# would otherwise fail with "no element ...").
cli_depends="$(dpkg-deb -f "$cli_deb" Depends)"
for plugin in gstreamer1.0-plugins-base gstreamer1.0-plugins-good; do
  case "$cli_depends" in *"$plugin"*) ;; *) fail "the visiongraph package does not depend on $plugin (Depends: $cli_depends)" ;; esac
done
case "$(dpkg-deb -f "$cli_deb" Recommends)" in *gstreamer1.0-plugins-ugly*gstreamer1.0-plugins-bad*|*gstreamer1.0-plugins-bad*gstreamer1.0-plugins-ugly*|*gstreamer1.0-libav*gstreamer1.0-plugins-ugly*) ;;
  *) fail "the visiongraph package does not recommend the encoder/decoder plugin packages" ;; esac
runtime_name="$(dpkg-deb -f "$cli_deb" Depends | tr ',' '\n' | sed -n 's/^ *\(libvisiongraph[0-9.]*\) (= .*/\1/p')"
[ -n "$runtime_name" ] || fail "the visiongraph package does not depend on a libvisiongraph<version> (= version)"

# 2. Install (or unpack).
mode=dpkg
if [ "${VG_DEBS_EXTRACT:-0}" = 1 ]; then
  mode=extract
elif [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else mode=extract; fi
fi
for name in "${names[@]}"; do
  if present "$name"; then
    log "$name is already installed on this machine; leaving it alone"
    mode=extract
  fi
done
if [ "$mode" = dpkg ]; then
  # Remove them again on exit, whatever happens from here on (dpkg -i may stop half-way).
  installed_names=("${names[@]}")
  log "dpkg -i ${names[*]}"
  dpkg_locked -i "${debs[@]}" >"$work/dpkg.log" || { cat "$work/dpkg.log"; fail "dpkg -i (are the Depends installed? scripts/setup.sh)"; }
  prefix=""
  cli=/usr/bin/visiongraph
else
  log "not root and no sudo, a visiongraph package already installed, or VG_DEBS_EXTRACT=1: unpacking with" \
      "dpkg-deb -x into a temp root instead of installing (dpkg -i is not exercised)"
  for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$work/root"; done
  prefix="$work/root"
  cli="$work/root/usr/bin/visiongraph"
fi

# 3. The installed command.
[ -x "$cli" ] || fail "no $cli"
env -u LD_LIBRARY_PATH ldd "$cli" >"$work/ldd.txt"
grep -q "not found" "$work/ldd.txt" && { cat "$work/ldd.txt"; fail "$cli: unresolved libraries"; }
while read -r name _ path _; do
  case "$(readlink -f "$path")" in
    "$prefix"/usr/lib/*) ;;
    *) fail "$cli: $name resolves to '$path', not to the packaged library under $prefix/usr/lib" ;;
  esac
done < <(grep 'libvisiongraph' "$work/ldd.txt")
log "$cli: $(grep -c libvisiongraph "$work/ldd.txt") visiongraph libraries from the packages"
env -u LD_LIBRARY_PATH timeout 60 "$cli" doctor >"$work/doctor.txt" 2>&1 || { cat "$work/doctor.txt"; fail "visiongraph doctor"; }
log "visiongraph doctor: ok ($(wc -l <"$work/doctor.txt") lines)"
assets="${VG_ASSETS_DIR:-$root/.cache/assets}"
face="$root/apps/face_detect/face_detect.yaml"
if [ -f "$assets/face_detection_back_256x256_barracuda.onnx" ]; then
  env -u LD_LIBRARY_PATH timeout 120 "$cli" verify "$face" --size 640x480 --assets "$assets" \
    || fail "visiongraph verify $face"
  log "visiongraph verify face_detect.yaml: ok"
else
  log "SKIPPED visiongraph verify of the face graph: no model in $assets (run scripts/fetch_assets.sh)"
fi
# Man pages (from the --help texts), when the build had help2man.
man_dir="$prefix/usr/share/man/man1"
if [ -f "$man_dir/visiongraph.1.gz" ]; then
  for page in visiongraph visiongraph-run visiongraph-verify visiongraph-dot visiongraph-kernels visiongraph-doctor visiongraph-ctl; do
    [ -f "$man_dir/$page.1.gz" ] || fail "no man page $man_dir/$page.1.gz"
  done
  LC_ALL=C MANWIDTH=200 man -l "$man_dir/visiongraph-run.1.gz" 2>/dev/null | grep -q -- '--max-rss' || fail "visiongraph-run(1) does not render or lacks --max-rss"
  log "man pages: ok ($(ls "$man_dir"/visiongraph*.1.gz | wc -l) pages)"
else
  log "no man pages in the package (built without help2man)"
fi
# The Python module, imported by Debian's interpreter from the installed files.
for name in "${names[@]}"; do
  [ "$name" = python3-visiongraph ] || continue
  py_dir="$prefix/usr/lib/python3/dist-packages"
  [ -d "$py_dir/visiongraph" ] || fail "python3-visiongraph has no $py_dir/visiongraph"
  py_env=(env -u LD_LIBRARY_PATH -u PYTHONPATH)
  [ "$mode" = extract ] && py_env+=(PYTHONPATH="$py_dir" LD_LIBRARY_PATH="$(dirname "$(grep -m1 libvisiongraph "$work/ldd.txt" | awk '{print $3}')")")
  where="$("${py_env[@]}" timeout 60 /usr/bin/python3 -B -c 'import visiongraph; print(visiongraph.__file__); assert visiongraph.Context(modules=["vg.example"]).kernel_names()' 2>&1)" \
    || fail "import visiongraph from python3-visiongraph: $where"
  case "$where" in "$py_dir"/visiongraph/*) ;; *) fail "python3 imported visiongraph from $where, not from the package" ;; esac
  log "python3-visiongraph: import ok ($where)"
done
if [ "$mode" = dpkg ]; then
  version="$(pkg-config --modversion visiongraph-detection)" || fail "pkg-config visiongraph-detection (libvisiongraph-dev)"
  log "pkg-config visiongraph-detection: $version"
fi
log "ok (${names[*]}; $mode)"
