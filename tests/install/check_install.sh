#!/usr/bin/env bash
# `cmake --install` of a build tree into a scratch prefix, then everything a user does with it:
#   1. the files are there (libraries with sonames, headers, CMake package, pkg-config files, LICENSE/NOTICE)
#      and the command and libraries carry a relative RUNPATH ($ORIGIN...), no build-tree path;
#   2. the INSTALLED visiongraph starts with no LD_LIBRARY_PATH, resolves every visiongraph library from the
#      prefix, lists the kernels, verifies and runs the face graph on messi5.jpg (skipped, saying so, when
#      the assets of scripts/fetch_assets.sh are missing);
#   3. an out-of-tree project finds the package with components (a missing one is reported by name) and
#      builds a core program, a yaml + detection program that produces a DetectionPacket, and a plugin
#      (VG_DEFINE_MODULE) that the installed command loads from a graph file and runs;
#   4. a tiny program builds with nothing but `pkg-config --cflags --libs`;
#   5. an OpenVX C program builds against the installed libopenvx, once with pkg-config openvx and once
#      with find_package(visiongraph COMPONENTS openvx), and runs.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR CXX_COMPILER EXPECT...
#   EXPECT: name=0|1 for cli, yaml, io, service, mqtt, npu, detection, inference, openvx (what the build has).
# Prints "install: ok" at the end; any failure exits non-zero naming the step.
set -euo pipefail
build="$1"; source="$2"; cxx="$3"; shift 3
declare -A expect=()
for kv in "$@"; do expect["${kv%%=*}"]="${kv#*=}"; done
has() { [ "${expect[$1]:-0}" = 1 ]; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d /tmp/vg-install-test.XXXXXX)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
step() { echo "install: $*"; }
fail() { echo "install: FAILED: $*" >&2; exit 1; }
# Every command below is bounded: a hang fails the test long before CTest's timeout.
bounded() { timeout --kill-after=5 "$@"; }

step "cmake --install $build --prefix $prefix"
bounded 120 cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

# 1. Files.
config="$(find "$prefix" -path '*/cmake/visiongraph/visiongraphConfig.cmake' | head -n1)"
[ -n "$config" ] || fail "no lib*/cmake/visiongraph/visiongraphConfig.cmake under $prefix"
libdir="$(dirname "$(dirname "$(dirname "$config")")")"
step "libdir ${libdir#$prefix/}"
need() { [ -e "$1" ] || fail "missing ${1#$prefix/}"; }
need "$prefix/include/visiongraph/visiongraph.hpp"
need "$prefix/share/doc/visiongraph/LICENSE"
need "$prefix/share/doc/visiongraph/NOTICE"
need "$libdir/pkgconfig/visiongraph.pc"
need "$libdir/cmake/visiongraph/visiongraph-framework-targets.cmake"
lib_of() {  # component -> library base names
  case "$1" in
    framework) echo visiongraph ;;
    detection) echo "visiongraph_detection visiongraph_detection_algo" ;;
    inference) echo "visiongraph_inference visiongraph_inference_backends" ;;
    *) echo "visiongraph_$1" ;;
  esac
}
header_of() {
  case "$1" in
    framework) echo visiongraph/visiongraph.hpp ;;
    yaml) echo visiongraph/yaml/yaml.hpp ;;
    io) echo visiongraph/io/source.hpp ;;
    service) echo visiongraph/service/control_server.hpp ;;
    mqtt) echo visiongraph/mqtt/publisher.hpp ;;
    npu) echo visiongraph/npu/doctor.hpp ;;
    detection) echo visiongraph/kernels/detection/detections.hpp ;;
    inference) echo visiongraph/kernels/inference/module.hpp ;;
  esac
}
installed=(framework)
for c in yaml io service mqtt npu detection inference; do has "$c" && installed+=("$c"); done
for c in "${installed[@]}"; do
  for lib in $(lib_of "$c"); do
    real="$(readlink -f "$libdir/lib$lib.so" 2>/dev/null || true)"
    [ -f "$real" ] || fail "component $c: missing lib$lib.so (link name) or its target"
    soname="$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
    [[ "$soname" =~ ^lib$lib\.so\.[0-9]+\.[0-9]+$ ]] || fail "lib$lib: soname '$soname' is not lib$lib.so.MAJOR.MINOR"
    need "$libdir/$soname"
    runpath="$(readelf -d "$real" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')"
    [ "$runpath" = '$ORIGIN' ] || fail "lib$lib: RUNPATH '$runpath', expected \$ORIGIN"
  done
  need "$prefix/include/$(header_of "$c")"
  need "$libdir/cmake/visiongraph/visiongraph-$c-targets.cmake"
  [ "$c" = framework ] || need "$libdir/pkgconfig/visiongraph-$c.pc"
done
if grep -rqs -- "$build" "$libdir/cmake/visiongraph" "$libdir/pkgconfig"; then
  fail "the installed CMake or pkg-config files name the build tree $build"
fi
step "files: ${installed[*]} (libraries, sonames, headers, CMake, pkg-config), LICENSE, NOTICE"

# 2. The installed command.
cli="$prefix/bin/visiongraph"
run_cli() { env -u LD_LIBRARY_PATH VG_ASSETS_DIR="$assets" timeout --kill-after=5 120 "$cli" "$@"; }
assets="${VG_ASSETS_DIR:-$source/.cache/assets}"
if has cli; then
  need "$cli"
  # No path of this machine in the installed command, and its default assets folder is the prefix's.
  if strings "$cli" | grep -qF "$source"; then fail "the installed command contains the source tree's path $source"; fi
  env -u VG_ASSETS_DIR -u LD_LIBRARY_PATH "$cli" doctor | grep -qF "assets directory: $prefix/share/visiongraph/assets" \
    || fail "the installed command's default assets folder is not $prefix/share/visiongraph/assets"
  need "$prefix/share/visiongraph/graphs/face_detect.yaml"
  need "$prefix/share/visiongraph/graphs/face_detect_rknn.yaml"
  need "$prefix/share/visiongraph/graphs/yolov8_rknn.yaml"
  need "$prefix/share/doc/visiongraph/docs/cli.md"
  step "the installed command names no build path; default assets in $prefix/share/visiongraph/assets; sample graphs and docs installed"
  runpath="$(readelf -d "$cli" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')"
  case "$runpath" in
    '$ORIGIN/'*) ;;
    *) fail "bin/visiongraph: RUNPATH '$runpath' is not relative to \$ORIGIN" ;;
  esac
  [ "$(cd "$prefix/bin" && cd "${runpath#\$ORIGIN/}" && pwd)" = "$(cd "$libdir" && pwd)" ] \
    || fail "bin/visiongraph: RUNPATH '$runpath' does not lead to ${libdir#$prefix/}"
  env -u LD_LIBRARY_PATH ldd "$cli" >"$work/ldd.txt"
  if grep -q 'not found' "$work/ldd.txt"; then cat "$work/ldd.txt"; fail "bin/visiongraph: unresolved libraries"; fi
  real_libdir="$(readlink -f "$libdir")"
  while read -r name _ path _; do
    case "$(readlink -f "$path")" in
      "$real_libdir"/*) ;;
      *) fail "bin/visiongraph: $name resolves to '$path', not into the prefix" ;;
    esac
  done < <(grep 'libvisiongraph' "$work/ldd.txt")
  step "bin/visiongraph: RUNPATH $runpath, $(grep -c libvisiongraph "$work/ldd.txt") visiongraph libraries from the prefix"

  run_cli kernels >"$work/kernels.txt" || fail "visiongraph kernels"
  expected_kernels=(vg.example.add vg.vision.gaussian3x3 vg.vision.threshold)
  has detection && expected_kernels+=(vg.detection.letterbox vg.detection.postprocess vg.detection.overlay)
  has inference && expected_kernels+=(vg.inference)
  for k in "${expected_kernels[@]}"; do
    grep -q "$k" "$work/kernels.txt" || { head -n 40 "$work/kernels.txt"; fail "visiongraph kernels does not list $k"; }
  done
  step "visiongraph kernels: ${expected_kernels[*]}"

  face="$source/apps/face_detect/face_detect.yaml"
  if has detection && has inference; then
    if [ -f "$assets/face_detection_back_256x256_barracuda.onnx" ] && [ -f "$assets/messi5.jpg" ]; then
      run_cli verify "$face" --size 640x480 --assets "$assets" || fail "visiongraph verify $face"
      run_cli run "$face" --input "$assets/messi5.jpg" --assets "$assets" --output-dir "$work/face" --no-progress \
        >"$work/face.log" 2>&1 || { cat "$work/face.log"; fail "visiongraph run $face on messi5.jpg"; }
      faces="$(python3 -c 'import json,sys; print(len(json.loads(open(sys.argv[1]).readline())["detections"]))' \
               "$work/face/detections.jsonl")"
      [ "$faces" -ge 1 ] || fail "visiongraph run on messi5.jpg: no face detected"
      step "visiongraph verify + run face_detect.yaml on messi5.jpg: $faces face(s)"
    else
      step "SKIPPED verify/run of the face graph: assets missing in $assets (run scripts/fetch_assets.sh)"
    fi
  fi
fi

# 3. An out-of-tree project: find_package with components, a DetectionPacket, a plugin.
if has yaml && has detection; then
  bounded 120 cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release >"$work/consumer.log" 2>&1 \
    || { cat "$work/consumer.log"; fail "configuring the consumer project"; }
  grep -q "missing component: visiongraph .*missing required component(s) 'no_such_component' (no such component)" \
    "$work/consumer.log" || { cat "$work/consumer.log"; fail "a missing component is not reported by name"; }
  bounded 300 cmake --build "$work/consumer" -j2 >>"$work/consumer.log" 2>&1 \
    || { cat "$work/consumer.log"; fail "building the consumer project"; }
  step "consumer project: find_package(visiongraph COMPONENTS yaml detection) built 3 targets; unknown component reported"
  bounded 60 "$work/consumer/consumer" | grep -q "consumer result 42" || fail "consumer (core)"
  bounded 60 "$work/consumer/detections" || fail "detections (yaml + detection)"

  if has cli; then
    # A 64x48 black image (binary PPM) for the plugin graph.
    { printf 'P6\n64 48\n255\n'; head -c $((64 * 48 * 3)) /dev/zero; } >"$work/frame.ppm"
    run_cli verify "$here/corner_box.yaml" --size 64x48 --set VG_MODULE_DIR="$work/consumer" \
      || fail "visiongraph verify corner_box.yaml (plugin)"
    run_cli run "$here/corner_box.yaml" --set VG_MODULE_DIR="$work/consumer" --input "$work/frame.ppm" \
      --output-dir "$work/plugin" --no-progress >"$work/plugin.log" 2>&1 \
      || { cat "$work/plugin.log"; fail "visiongraph run corner_box.yaml (plugin)"; }
    box="$(python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).readline())["detections"]; print([float(v) for v in d[0]["box"]])' \
           "$work/plugin/detections.jsonl")"
    [ "$box" = "[4.0, 4.0, 60.0, 44.0]" ] || fail "plugin: detection box $box, expected [4.0, 4.0, 60.0, 44.0]"
    step "installed visiongraph ran the out-of-tree plugin: box $box"
  fi
fi

# 4. pkg-config.
if has detection; then
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  version="$(pkg-config --modversion visiongraph-detection)"
  flags="$(pkg-config --cflags --libs visiongraph-detection)"
  case "$flags" in *"-I$prefix/include"*"-L$libdir"*) ;; *) fail "pkg-config flags '$flags' do not point into $prefix" ;; esac
  # shellcheck disable=SC2086  # the flags are words
  # As docs/install.md says, nothing but the flags: they carry the rpath for a prefix outside /usr.
  bounded 120 "$cxx" -std=c++20 "$here/pkgconfig_main.cpp" -o "$work/pkgconfig_main" $flags \
    || fail "building with pkg-config --cflags --libs visiongraph-detection"
  bounded 60 env -u LD_LIBRARY_PATH "$work/pkgconfig_main" | grep -q "vg.detection loaded" || fail "pkg-config program"
  step "pkg-config visiongraph-detection $version: $flags"
fi
# 5. OpenVX.
if has openvx; then
  for lib in openvx vxu; do
    real="$(readlink -f "$libdir/lib$lib.so" 2>/dev/null || true)"
    [ -f "$real" ] || fail "component openvx: missing lib$lib.so"
  done
  for h in vx.h vx_types.h vx_api.h vx_nodes.h vxu.h vx_khr_pipelining.h vx_khr_user_data_object.h vx_khr_nn.h \
           vx_compatibility.h; do
    need "$prefix/include/VX/$h"
  done
  need "$libdir/pkgconfig/openvx.pc"
  app="$source/tests/openvx/test_openvx_c_program.c"
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  flags="$(pkg-config --cflags --libs openvx)"
  # shellcheck disable=SC2086  # the flags are words
  # docs/openvx.md's line as written: cc app.c $(pkg-config --cflags --libs openvx) -o app
  bounded 120 cc -std=c99 "$app" -o "$work/openvx_pkgconfig" $flags \
    || fail "building an OpenVX program with pkg-config --cflags --libs openvx"
  bounded 60 env -u LD_LIBRARY_PATH "$work/openvx_pkgconfig" | grep -q "all checks passed" || fail "OpenVX program (pkg-config)"
  bounded 120 cmake -S "$here/openvx_consumer" -B "$work/openvx_consumer" -DCMAKE_PREFIX_PATH="$prefix" \
    -DVG_OPENVX_APP_SOURCE="$app" -DCMAKE_BUILD_TYPE=Release >"$work/openvx_consumer.log" 2>&1 \
    && bounded 300 cmake --build "$work/openvx_consumer" >>"$work/openvx_consumer.log" 2>&1 \
    || { cat "$work/openvx_consumer.log"; fail "building an OpenVX program with find_package(visiongraph COMPONENTS openvx)"; }
  bounded 60 env -u LD_LIBRARY_PATH "$work/openvx_consumer/openvx_app" | grep -q "all checks passed" || fail "OpenVX program (CMake)"
  step "OpenVX: a C program built with pkg-config openvx ($flags) and with the CMake component, both ran"
  # 6. The build tree as a package: visiongraph_DIR=<build dir>, no install.
  bounded 120 cmake -S "$here/openvx_consumer" -B "$work/openvx_build_tree" -Dvisiongraph_DIR="$build" \
    -DVG_OPENVX_APP_SOURCE="$app" -DCMAKE_BUILD_TYPE=Release >"$work/openvx_build_tree.log" 2>&1 \
    && bounded 300 cmake --build "$work/openvx_build_tree" >>"$work/openvx_build_tree.log" 2>&1 \
    || { cat "$work/openvx_build_tree.log"; fail "building an OpenVX program against the build tree (visiongraph_DIR=$build)"; }
  bounded 60 env -u LD_LIBRARY_PATH "$work/openvx_build_tree/openvx_app" | grep -q "all checks passed" \
    || fail "OpenVX program built against the build tree"
  step "the build tree loads as a CMake package (visiongraph_DIR=$build): an OpenVX program built and ran"
fi
echo "install: ok"
