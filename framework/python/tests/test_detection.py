"""Face detection (apps/face_detect/face_detect.yaml) from Python: the same detections as the visiongraph
command on messi5.jpg, streaming, numpy outputs, commands to the decoder, bad inputs."""

import json
import os
import subprocess

import numpy as np
import pytest

import visiongraph as vg

pytestmark = pytest.mark.skipif(
    not {"vg.detection", "vg.inference"} <= set(vg.builtin_modules()),
    reason="built without the detection and inference kernels (VG_BUILD_KERNELS=OFF)")


@pytest.fixture(scope="module")
def face_yaml(source_dir):
    return str(source_dir / "apps" / "face_detect" / "face_detect.yaml")


@pytest.fixture(scope="module")
def messi(assets_dir):
    if not vg.HAVE_OPENCV:
        pytest.skip("built without OpenCV: no visiongraph.imread")
    return vg.imread(str(assets_dir / "messi5.jpg"))


def load_face(face_yaml, assets_dir, image, **options):
    return vg.load_graph(face_yaml, variables={"VG_ASSETS_DIR": str(assets_dir)},
                         size=(image.shape[1], image.shape[0]), **options)


def detect(face_yaml, assets_dir, image):
    g = load_face(face_yaml, assets_dir, image)
    g.process(inputs={"input": image})
    return g, g.detections("detections")


def test_same_detections_as_the_cli(face_yaml, assets_dir, messi, tmp_path):
    cli = os.environ.get("VG_CLI")
    if not cli:
        pytest.skip("the visiongraph command is not built (VG_BUILD_APPS=OFF): nothing to compare with")
    out = tmp_path / "out"
    subprocess.run([cli, "run", face_yaml, "--input", str(assets_dir / "messi5.jpg"), "-o", str(out),
                    "--assets", str(assets_dir), "--no-progress"], check=True, timeout=120,
                   stdout=subprocess.DEVNULL)
    lines = (out / "detections.jsonl").read_text().splitlines()
    assert len(lines) == 1
    expected = json.loads(lines[0])["detections"]
    assert expected, "the command found no face in messi5.jpg"

    _, found = detect(face_yaml, assets_dir, messi)
    assert len(found) == len(expected)
    for got, want in zip(found, expected):
        assert got.class_id == want["class_id"]
        # The command writes rounded numbers (a few decimals): equal up to that rounding.
        assert got.score == pytest.approx(want["score"], abs=2e-3)
        assert got.box == pytest.approx(tuple(want["box"]), abs=2e-3)
        assert len(got.keypoints) == len(want["keypoints"]) == 6
        for (x, y), (wx, wy) in zip(got.keypoints, want["keypoints"]):
            assert (x, y) == pytest.approx((wx, wy), abs=2e-3)


def test_detections_as_numpy_arrays(face_yaml, assets_dir, messi):
    g, found = detect(face_yaml, assets_dir, messi)
    arrays = g.detections_array("detections")
    n = len(found)
    assert n >= 1 and arrays["valid"] and not arrays["truncated"]
    assert arrays["boxes"].shape == (n, 4) and arrays["boxes"].dtype == np.float32
    assert arrays["scores"].shape == (n,) and arrays["class_ids"].dtype == np.int32
    assert arrays["keypoints"].shape == (n, 6, 2)
    np.testing.assert_array_equal(arrays["boxes"][0], np.float32(found[0].box))
    np.testing.assert_array_equal(arrays["keypoints"][0], np.float32(found[0].keypoints))
    x0, y0, x1, y1 = found[0].box
    assert 0 <= x0 < x1 <= messi.shape[1] and 0 <= y0 < y1 <= messi.shape[0]


def test_frame_read_in_place_and_annotated_image_out(face_yaml, assets_dir, messi):
    g = load_face(face_yaml, assets_dir, messi)
    assert g.set_input("input", messi) is True  # a decoded BGR image is read without a copy
    assert g.image("frame", buffer=0).ctypes.data == messi.ctypes.data
    g.process()
    annotated = g.image("annotated", copy=True)
    assert annotated.shape == messi.shape
    assert (annotated != messi).any()  # boxes and keypoints drawn
    tensor = g.tensor("face_input")
    assert tensor.shape == (1, 256, 256, 3) and tensor.dtype == np.float32
    assert -1.0 <= tensor.min() and tensor.max() <= 1.0


def test_streaming_gives_the_same_detections_per_frame(face_yaml, assets_dir, messi):
    _, reference = detect(face_yaml, assets_dir, messi)
    g = load_face(face_yaml, assets_dir, messi)
    g.start()  # every detections/annotated buffer handed to the graph
    flipped = np.ascontiguousarray(messi[:, ::-1])
    frames = [messi, flipped, messi, flipped]
    for i, frame in enumerate(frames):
        g.enqueue("input", frame, tag=i)
    results = []
    for i in range(len(frames)):
        done = g.dequeue("input", timeout=30)
        assert done.status == vg.Status.ok and done.tag == i
        det = g.dequeue("detections", timeout=30)
        ann = g.dequeue("annotated", timeout=30)
        assert det.tag == i
        results.append(g.detections("detections", buffer=det.index))
        g.enqueue("detections", buffer=det.index)
        g.enqueue("annotated", buffer=ann.index)
    g.stop()
    for found in results[0::2]:
        assert [d.box for d in found] == [d.box for d in reference]
    for found in results[1::2]:  # mirrored: the face is found mirrored
        assert len(found) == len(reference)
        x0, _, x1, _ = found[0].box
        assert x0 == pytest.approx(messi.shape[1] - reference[0].box[2], abs=3.0)
    assert g.stats().frames_completed == len(frames)


def test_commands_to_the_decoder(face_yaml, assets_dir, messi):
    g, found = detect(face_yaml, assets_dir, messi)
    assert found
    reply = g.send_command("decode", "set_score_threshold", 0.99)
    assert "score_threshold=0.99" in reply
    g.process()
    assert g.detections() == [] or all(d.score >= 0.99 for d in g.detections())
    with pytest.raises(vg.StatusError) as refused:
        g.send_command("decode", "set_score_threshold", 1.5)
    assert refused.value.status == vg.Status.invalid_argument
    assert "backend=" in g.send_command("detector", "get_run_time")


def test_the_tracker_gives_a_face_one_id_from_its_third_frame(face_yaml, assets_dir, messi):
    g = load_face(face_yaml, assets_dir, messi)
    ids = []
    for _ in range(5):  # the same frame five times: a face standing still
        g.process(inputs={"input": messi})
        found = g.detections("detections")
        assert found
        ids.append(found[0].track_id)
        assert g.detections_array("detections")["track_ids"][0] == found[0].track_id
    assert ids[:2] == [0, 0] and ids[2] > 0 and ids[2:] == [ids[2]] * 3
    assert "track_id=" in repr(found[0])
    assert "confirmed=" in g.send_command("track", "reset")
    g.process(inputs={"input": messi})
    assert g.detections("detections")[0].track_id == 0  # a new track, not yet confirmed


def test_wrong_frames_are_refused_naming_the_input(face_yaml, assets_dir, messi):
    g = load_face(face_yaml, assets_dir, messi)
    with pytest.raises(ValueError, match=r"input 'input' \(data object 'frame'\): expects a uint8 array of shape "
                                         r"\(342, 548, 3\)"):
        g.set_input("input", messi[:100])
    with pytest.raises(TypeError, match="got dtype float32"):
        g.process(inputs={"input": messi.astype(np.float32)})
    with pytest.raises(TypeError, match="not a DetectionPacket"):
        g.detections("frame")


def test_missing_model_file_names_the_node_and_file(face_yaml, tmp_path):
    missing = tmp_path / "no_such_model.onnx"
    with pytest.raises(vg.LoadError) as err:
        vg.load_graph(face_yaml, size=(64, 48), attributes={"detector.model": str(missing)})
    message = str(err.value)
    assert "no_such_model.onnx" in message and "detector" in message
    assert err.value.file == face_yaml and err.value.line > 0
