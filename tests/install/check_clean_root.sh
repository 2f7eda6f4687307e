#!/usr/bin/env bash
# The Debian packages on a bare Debian 12: mmdebstrap makes a minimal root (apt variant) in a temp folder,
# apt installs our .deb files there, resolving every dependency from the Debian archive as on a fresh
# board, and the installed command then runs the face graph on messi5.jpg inside that root (chroot); the
# Python package is imported by the root's own python3. Nothing of the build machine's libraries is
# visible there, so a missing Depends fails here. Run by .ci/run.
#
#   tests/install/check_clean_root.sh PKG.deb...     (the .deb files of one cpack run)
#
# Needs root (chroot, mounts), network access to the Debian archive, and the assets of
# scripts/fetch_assets.sh (VG_ASSETS_DIR, else <repo>/.cache/assets). Debian packages the machine already
# downloaded (/var/cache/apt/archives) are hard-linked in first, so mostly the missing ones are fetched.
# Bounded: 15 minutes. The root is deleted on exit.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
log() { echo "check_clean_root: $*"; }
fail() { echo "check_clean_root: FAILED: $*" >&2; exit 1; }

[ $# -ge 1 ] || fail "usage: $0 PKG.deb..."
if [ "$(id -u)" -ne 0 ]; then  # mmdebstrap --mode=root and chroot need root: through sudo when it asks nothing
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || fail "needs root or password-less sudo (mmdebstrap --mode=root, chroot)"
  exec sudo -n VG_ASSETS_DIR="${VG_ASSETS_DIR:-}" bash "$0" "$@"
fi
command -v mmdebstrap >/dev/null || fail "mmdebstrap is not installed (scripts/setup.sh installs it)"
assets="${VG_ASSETS_DIR:-$root/.cache/assets}"
for f in face_detection_back_256x256_barracuda.onnx messi5.jpg; do
  [ -f "$assets/$f" ] || fail "no $assets/$f (run scripts/fetch_assets.sh)"
done
debs=()
for deb in "$@"; do
  [ -f "$deb" ] || fail "no such package file: $deb"
  # The -dev package would pull in the whole build toolchain; a board gets the runtime, command and module.
  [ "$(dpkg-deb -f "$deb" Package)" = libvisiongraph-dev ] && continue
  debs+=("$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")")
done

work="$(mktemp -d /tmp/vg-clean-root.XXXXXX)"
cleanup() {
  local status=$?
  # mmdebstrap unmounts what it mounted; a hook that failed half-way may leave a mount behind.
  for m in proc sys dev/pts dev; do mountpoint -q "$work/root/$m" 2>/dev/null && umount -l "$work/root/$m"; done
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT
mkdir -p "$work/payload/debs" "$work/payload/assets"
cp "${debs[@]}" "$work/payload/debs/"
cp "$assets/face_detection_back_256x256_barracuda.onnx" "$assets/messi5.jpg" "$work/payload/assets/"

# What runs inside the root, after our packages are installed.
cat >"$work/payload/inside.sh" <<'INSIDE'
set -eu
export LC_ALL=C.UTF-8
echo "inside: $(. /etc/os-release; echo "$PRETTY_NAME"), $(dpkg-query -W -f='${binary:Package} ' 'libvisiongraph*' visiongraph python3-visiongraph)"
visiongraph --version
visiongraph doctor >/tmp/doctor.txt 2>&1 || { cat /tmp/doctor.txt; exit 1; }
graph=/usr/share/visiongraph/graphs/face_detect.yaml
visiongraph run "$graph" --input /vg/assets/messi5.jpg --assets /vg/assets --output-dir /tmp/face --no-progress
faces="$(python3 -B -c 'import json; print(len(json.loads(open("/tmp/face/detections.jsonl").readline())["detections"]))')"
echo "inside: face graph on messi5.jpg: $faces face(s)"
[ "$faces" -ge 1 ]
python3 -B -c 'import visiongraph as vg; ctx = vg.Context(modules=["vg.example"]); print("inside: python3-visiongraph:", vg.__file__, len(ctx.kernel_names()), "kernels")'
man -w visiongraph-run >/dev/null 2>&1 || [ -f /usr/share/man/man1/visiongraph-run.1.gz ]
echo "inside: ok"
INSIDE

log "mmdebstrap bookworm (apt variant) + ${#debs[@]} packages: $(for d in "${debs[@]}"; do basename "$d"; done | tr '\n' ' ')"
start=$SECONDS
status=0
# shellcheck disable=SC2016  # the hooks' $1 is mmdebstrap's, expanded by the hook's shell
timeout 900 mmdebstrap --variant=apt --mode=root --quiet \
  --setup-hook='mkdir -p "$1/var/cache/apt/archives" && { cp -al /var/cache/apt/archives/*.deb "$1/var/cache/apt/archives/" 2>/dev/null || true; }' \
  --customize-hook="mkdir -p \"\$1/vg\" && cp -r '$work/payload/.' \"\$1/vg/\"" \
  --customize-hook='chroot "$1" sh -c "apt-get install -y -q --no-install-recommends /vg/debs/*.deb >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }"' \
  --customize-hook='chroot "$1" sh /vg/inside.sh' \
  bookworm "$work/root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main" >"$work/mmdebstrap.log" 2>&1 || status=$?
cat "$work/mmdebstrap.log"
[ $status -eq 0 ] || fail "mmdebstrap or a step inside the root failed (status $status; 124 = the 15 minute bound)"
grep -q '^inside: ok' "$work/mmdebstrap.log" || fail "the checks inside the root did not finish"
log "ok in $((SECONDS - start)) s"
