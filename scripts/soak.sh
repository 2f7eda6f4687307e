#!/usr/bin/env bash
# Soak test (not in CI): the face graph for many frames with annotated video output and MQTT publishing
# to a local mosquitto broker, sampling the process's resident memory and open file descriptors.
# Usage: scripts/soak.sh [FRAMES] [SAMPLE_SECONDS]      (default 50000 frames, a sample every 10 s)
# Prints a CSV (seconds, frames so far, RSS kB, open fds) and a summary: RSS growth after warm-up.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
frames="${1:-50000}"
every="${2:-10}"
cli="${VG_CLI:-$root/build/apps/cli/visiongraph}"
[ -x "$cli" ] || { echo "soak: build first ($cli missing)" >&2; exit 1; }
command -v /usr/sbin/mosquitto >/dev/null || { echo "soak: needs the mosquitto broker (scripts/setup.sh)" >&2; exit 1; }

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 18830)"
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" > "$work/broker.conf"
/usr/sbin/mosquitto -c "$work/broker.conf" > "$work/broker.log" 2>&1 &
broker=$!
cleanup() { kill "$broker" 2>/dev/null || true; [ -n "${run:-}" ] && kill "$run" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
sleep 0.5

# A synthetic 720x528 stream (no faces: the graph does all its work all the same), as fast as the graph goes.
input="gst:videotestsrc num-buffers=$frames pattern=ball ! video/x-raw,format=BGR,width=720,height=528,framerate=25/1 ! appsink name=sink sync=false"
"$cli" run "$root/apps/face_detect/face_detect.yaml" --no-progress --input "$input" -o "$work/out" \
  --publish "mqtt://127.0.0.1:$port/soak" > "$work/run.log" 2>&1 &
run=$!

echo "seconds,frames,rss_kb,fds"
start=$(date +%s)
while kill -0 "$run" 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$run/status" 2>/dev/null || echo 0)
  fds=$(ls "/proc/$run/fd" 2>/dev/null | wc -l)
  done_frames=$( (wc -l < "$work/out/detections.jsonl") 2>/dev/null || echo 0)
  echo "$(( $(date +%s) - start )),$done_frames,$rss,$fds" | tee -a "$work/samples.csv"
  sleep "$every"
done
wait "$run" && status=0 || status=$?
tail -n 4 "$work/run.log"
python3 - "$work/samples.csv" <<'EOF' || true
import sys
rows = [list(map(int, l.split(","))) for l in open(sys.argv[1]) if l.strip()]
warm = [r for r in rows if r[1] >= 2000] or rows
if warm:
    first, last = warm[0], warm[-1]
    grow = last[2] - first[2]
    per = grow * 1024 / max(1, last[1] - first[1])
    print(f"summary: RSS {first[2]} kB at frame {first[1]} -> {last[2]} kB at frame {last[1]}: "
          f"{grow:+d} kB ({per:.2f} bytes/frame); fds {min(r[3] for r in rows)}..{max(r[3] for r in rows)}")
EOF
echo "soak: visiongraph exited with $status"
exit "$status"
