"""The vg.vision kernels from Python: apps/vision/bright_regions.yaml on a numpy frame (the same results the
visiongraph command gives), a graph built in Python, and the threshold command."""

import numpy as np
import pytest

import visiongraph as vg

pytestmark = pytest.mark.skipif("vg.vision" not in vg.builtin_modules(), reason="built without vg.vision")


def scene():
    """A bright square and single bright specks on a dark BGR frame."""
    frame = np.full((240, 320, 3), 30, np.uint8)
    frame[60:150, 100:180] = 230
    for i in range(20):
        frame[10 + 11 * i, 20 + 7 * i] = 255
    return frame


def test_bright_regions_graph_keeps_the_square_and_drops_the_specks(source_dir):
    frame = scene()
    g = vg.load_graph(str(source_dir / "apps" / "vision" / "bright_regions.yaml"), size=(320, 240))
    g.process(inputs={"input": frame})
    mask = g.image("annotated", copy=True)
    assert mask.shape == (240, 320)
    assert mask[100, 140] == 255
    outside = mask.copy()
    outside[58:152, 98:182] = 0
    assert not outside.any(), "a speck survived the opening"
    assert g.send_command("threshold", "set_threshold", 250) == "value=250"
    g.process(inputs={"input": frame})
    assert not g.image("annotated", copy=True).any(), "230 is not above 250"


def test_a_graph_built_in_python_matches_the_definition():
    ctx = vg.Context(modules=["vg.vision"])
    assert "vg.vision.median3x3" in ctx.kernel_names()
    g = vg.Graph(ctx, "median")
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (31, 45), dtype=np.uint8)
    g.add_image("in", 45, 31, "gray8")
    g.add_image("out", 45, 31, "gray8")
    g.add_node("median", "vg.vision.median3x3", parameters={"input": "in", "output": "out"})
    g.verify()
    g.process(inputs={"in": image})
    out = g.image("out", copy=True)
    padded = np.pad(image, 1, mode="edge")
    windows = np.stack([padded[dy:dy + 31, dx:dx + 45] for dy in range(3) for dx in range(3)])
    assert (out == np.median(windows, axis=0).astype(np.uint8)).all()


def test_edges_graph_outlines_the_square_and_takes_new_thresholds(source_dir):
    frame = np.full((240, 320, 3), 30, np.uint8)
    frame[60:150, 100:180] = 230
    g = vg.load_graph(str(source_dir / "apps" / "vision" / "edges.yaml"), size=(320, 240))
    g.process(inputs={"input": frame})
    edges = g.image("annotated", copy=True)
    assert edges.shape == (240, 320)
    assert set(np.unique(edges)) <= {0, 255}
    near_outline = np.zeros_like(edges, dtype=bool)
    near_outline[57:153, 97:183] = True
    near_outline[63:147, 103:177] = False
    assert not edges[~near_outline].any(), "an edge away from the square's outline"
    assert np.count_nonzero(edges) > 300, "the outline (340 pixels) is found"
    assert g.send_command("canny", "set_high", 100000) == "low=40 high=100000"
    g.process(inputs={"input": frame})
    assert not g.image("annotated", copy=True).any(), "no gradient reaches 100000"


def test_kernels_over_the_rest_of_the_library_from_python():
    ctx = vg.Context(modules=["vg.vision"])
    for name in ("vg.vision.scale", "vg.vision.convolve", "vg.vision.color_convert", "vg.vision.canny", "vg.vision.lbp"):
        assert name in ctx.kernel_names()
    g = vg.Graph(ctx, "resize")
    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, (48, 64), dtype=np.uint8)
    g.add_image("in", 64, 48, "gray8")
    g.add_image("out", 32, 24, "gray8")
    g.add_node("scale", "vg.vision.scale", parameters={"input": "in", "output": "out"},
               attributes={"width": 32, "height": 24, "interpolation": "area"})
    g.verify()
    g.process(inputs={"in": image})
    out = g.image("out", copy=True)
    # AREA at exactly 2:1 is the mean of each 2x2 block, rounded half up.
    blocks = image.reshape(24, 2, 32, 2).astype(np.int32).sum(axis=(1, 3))
    assert (out == ((blocks + 2) // 4).astype(np.uint8)).all()


def test_gradients_and_statistics_arrive_as_numpy_arrays_and_numbers():
    """S16 planes are i16 tensors [H, W]: Sobel and magnitude against numpy, a histogram and the mean."""
    ctx = vg.Context(modules=["vg.vision"])
    g = vg.Graph(ctx, "measures")
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (21, 34), dtype=np.uint8)
    g.add_image("in", 34, 21, "gray8")
    g.add_tensor("gx", [21, 34], "i16")
    g.add_tensor("gy", [21, 34], "i16")
    g.add_tensor("magnitude", [21, 34], "i16")
    g.add_tensor("bins", [8], "u32")
    g.add_scalar("mean", "f32")
    g.add_node("sobel", "vg.vision.sobel3x3", parameters={"input": "in", "grad_x": "gx", "grad_y": "gy"})
    g.add_node("magnitude", "vg.vision.magnitude", parameters={"grad_x": "gx", "grad_y": "gy", "output": "magnitude"})
    g.add_node("histogram", "vg.vision.histogram", parameters={"input": "in", "output": "bins"}, attributes={"bins": 8})
    g.add_node("stats", "vg.vision.mean_stddev", parameters={"input": "in", "mean": "mean"})
    g.verify()
    g.process(inputs={"in": image})

    p = np.pad(image, 1, mode="edge").astype(np.int32)
    win = lambda dy, dx: p[1 + dy:22 + dy, 1 + dx:35 + dx]  # noqa: E731
    gx = (win(-1, 1) - win(-1, -1)) + 2 * (win(0, 1) - win(0, -1)) + (win(1, 1) - win(1, -1))
    gy = (win(1, -1) - win(-1, -1)) + 2 * (win(1, 0) - win(-1, 0)) + (win(1, 1) - win(-1, 1))
    assert g.tensor("gx").dtype == np.int16
    assert (g.tensor("gx", copy=True) == gx).all()
    assert (g.tensor("gy", copy=True) == gy).all()
    expected = np.minimum(np.floor(np.hypot(gx, gy) + 0.5), 32767)
    assert (g.tensor("magnitude", copy=True) == expected).all()
    assert (g.tensor("bins", copy=True) == np.bincount(image.ravel() // 32, minlength=8)).all()
    assert g.scalar("mean") == pytest.approx(image.mean(), rel=1e-6)


def test_motion_graph_marks_what_moved_against_its_running_background(source_dir):
    """apps/vision/motion.yaml: the first frame starts the background; a square that appears later is
    marked, the still ground is not, and `reset` makes the next frame the background again."""
    still = np.full((120, 160, 3), 40, np.uint8)
    moved = still.copy()
    moved[30:70, 50:100] = 200
    g = vg.load_graph(str(source_dir / "apps" / "vision" / "motion.yaml"), size=(160, 120))
    g.process(inputs={"input": still})
    assert not g.image("annotated", copy=True).any(), "nothing moved yet"
    g.process(inputs={"input": moved})
    mask = g.image("annotated", copy=True)
    assert mask[50, 75] == 255, "the new square"
    assert mask[10, 10] == 0 and mask[100, 140] == 0, "the still ground"
    assert g.send_command("background", "reset") == ""
    g.process(inputs={"input": moved})
    assert not g.image("annotated", copy=True).any(), "the square is the background now"


def test_optical_flow_follows_corners_from_one_frame_into_the_next():
    """FAST corners of a frame followed into the next by vg.vision.optical_flow; the tracks read as a
    structured numpy array (from_x, from_y, x, y, tracked)."""
    rng = np.random.default_rng(2)
    texture = rng.integers(0, 256, (140, 180)).astype(np.float32)
    for _ in range(3):  # smooth it: corners that survive a small shift
        texture = (texture + np.roll(texture, 1, 0) + np.roll(texture, 1, 1) + np.roll(texture, -1, 0) + np.roll(texture, -1, 1)) / 5
    texture = ((texture - texture.min()) * 255 / (texture.max() - texture.min())).astype(np.uint8)
    first, second = texture[10:130, 10:170], texture[9:129, 7:167]  # the view moves: content shifts by (+3, +1)
    ctx = vg.Context(modules=["vg.vision"])
    g = vg.Graph(ctx, "flow")
    g.add_image("in", 160, 120, "gray8")
    g.add_virtual("corners", "array")
    g.add_virtual("tracks", "array")
    g.add_node("fast", "vg.vision.fast_corners", parameters={"input": "in", "corners": "corners"}, attributes={"capacity": 200})
    g.add_node("flow", "vg.vision.optical_flow", parameters={"input": "in", "points": "corners", "tracks": "tracks"})
    g.verify()
    g.process(inputs={"in": np.ascontiguousarray(first)})
    assert len(g.get("tracks")) == 0, "no previous frame"
    g.process(inputs={"in": np.ascontiguousarray(second)})
    track = np.dtype([("from_x", "<f4"), ("from_y", "<f4"), ("x", "<f4"), ("y", "<f4"), ("tracked", "<u4")])
    tracks = g.get("tracks").view(track).ravel()
    assert len(tracks) > 20
    inner = tracks[(tracks["tracked"] == 1) & (tracks["from_x"] > 12) & (tracks["from_x"] < 148) & (tracks["from_y"] > 12) & (tracks["from_y"] < 108)]
    assert len(inner) > 10
    moved = np.stack([inner["x"] - inner["from_x"], inner["y"] - inner["from_y"]], axis=1)
    assert (np.abs(moved - [3, 1]) < 0.2).all(axis=1).mean() > 0.9
