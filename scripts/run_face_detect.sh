#!/usr/bin/env bash
# The main job: installs what is missing, fetches the BlazeFace model and the sample video, builds, and
# runs face detection on Megamind.avi. Writes out/face_detect/{annotated.mp4,detections.jsonl,trace.json}
# and prints the per-node timing table. Extra arguments go to `visiongraph run`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/fetch_assets.sh"
# Only what the main job needs (the visiongraph command); build/ is shared with scripts/test.sh.
TARGETS=visiongraph BUILD_DIR="${BUILD_DIR:-$root/build}" "$root/scripts/build.sh" -DVG_BUILD_APPS=ON -DVG_BUILD_KERNELS=ON \
  -DVG_BUILD_NPU=ON -DVG_BUILD_YAML=ON -DVG_SANITIZE=
assets="${VG_ASSETS_DIR:-$root/.cache/assets}"
cd "$root"
exec "${BUILD_DIR:-$root/build}/apps/cli/visiongraph" run apps/face_detect/face_detect.yaml \
  --input "$assets/Megamind.avi" --output-dir out/face_detect "$@"
