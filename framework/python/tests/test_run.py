"""visiongraph.run: the run loop of `visiongraph run` from Python, over one source or several streams
(one graph instance each in one context), with the command's outputs and exit statuses."""

import json
import threading
import time
from pathlib import Path

import pytest

import visiongraph as vg


@pytest.fixture()
def face_graph(source_dir):
    return str(source_dir / "apps" / "face_detect" / "face_detect.yaml")


@pytest.fixture()
def video(assets_dir):
    path = assets_dir / "Megamind.avi"
    if not path.exists():
        pytest.skip(f"{path} missing (run scripts/fetch_assets.sh)")
    return str(path)


def read_lines(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def test_one_input_writes_the_commands_outputs(face_graph, video, tmp_path):
    status = vg.run(face_graph, inputs=[video], output_dir=str(tmp_path), frames=12)
    assert status == 0
    lines = read_lines(tmp_path / "detections.jsonl")
    assert [line["frame"] for line in lines] == list(range(12))
    assert (tmp_path / "trace.json").stat().st_size > 0
    assert not (tmp_path / "streams.json").exists()  # one unnamed stream: the folder as before


def test_two_streams_share_one_run_each_with_its_own_outputs(face_graph, video, tmp_path):
    status = vg.run(face_graph, inputs=[f"left={video}", f"right={video}"], output_dir=str(tmp_path), frames=10)
    assert status == 0
    left = read_lines(tmp_path / "left" / "detections.jsonl")
    right = read_lines(tmp_path / "right" / "detections.jsonl")
    assert len(left) == len(right) == 10
    # The same frames through two instances of one graph give the same detections (the tracker's ids too).
    assert [line["detections"] for line in left] == [line["detections"] for line in right]
    streams = json.loads((tmp_path / "streams.json").read_text())["streams"]
    assert [(s["name"], s["ok"], s["frames"]["completed"]) for s in streams] == [("left", True, 10), ("right", True, 10)]


def test_a_stream_that_cannot_open_fails_alone_with_status_3(face_graph, video, tmp_path):
    status = vg.run(face_graph, inputs=[f"good={video}", "bad=/nonexistent/camera.mp4"], output_dir=str(tmp_path), frames=5)
    assert status == 3
    streams = {s["name"]: s for s in json.loads((tmp_path / "streams.json").read_text())["streams"]}
    assert streams["good"]["ok"] and streams["good"]["frames"]["completed"] == 5
    assert not streams["bad"]["ok"] and "/nonexistent/camera.mp4" in streams["bad"]["error"]


def test_every_stream_failing_is_status_1(face_graph, tmp_path):
    assert vg.run(face_graph, inputs=["a=/nonexistent/a.mp4", "b=/nonexistent/b.mp4"], output_dir=str(tmp_path)) == 1


def test_usage_errors_raise_value_error_naming_the_problem(face_graph, video, tmp_path):
    with pytest.raises(ValueError, match="stream name 'cam' is given twice"):
        vg.run(face_graph, inputs=[f"cam={video}", f"cam={video}"], output_dir=str(tmp_path))
    with pytest.raises(ValueError, match="streams:"):
        vg.run(face_graph, output_dir=str(tmp_path))


def test_a_graph_file_error_raises_load_error(tmp_path, video):
    bad = tmp_path / "bad.yaml"
    bad.write_text("nodes:\n  a: {kernel: vg.no_such_kernel}\n")
    with pytest.raises(vg.LoadError, match="needs a graph parameter named 'input'"):
        vg.run(str(bad), inputs=[video], output_dir=str(tmp_path / "out"))


def test_request_stop_from_another_thread_drains_and_returns_0(face_graph, video, tmp_path):
    timer = threading.Timer(1.5, vg.request_stop)
    timer.start()
    started = time.monotonic()
    try:
        status = vg.run(face_graph, inputs=[video], output_dir=str(tmp_path), realtime=True)
    finally:
        timer.cancel()
    assert status == 0
    assert time.monotonic() - started < 30  # the whole video at 24 fps would take about 3 minutes
    lines = read_lines(tmp_path / "detections.jsonl")
    assert 5 <= len(lines) < 1000


def test_streams_listed_in_the_graph_file(face_graph, video, tmp_path):
    text = Path(face_graph).read_text()
    graph = tmp_path / "two_cameras.yaml"
    graph.write_text(text + f"\nstreams:\n  - {{name: door, input: {video}}}\n  - {{name: yard, input: {video}}}\n")
    assert vg.run(str(graph), output_dir=str(tmp_path / "out"), frames=4) == 0
    for name in ("door", "yard"):
        assert len(read_lines(tmp_path / "out" / name / "detections.jsonl")) == 4
