"""Graphs built in Python: verify errors, numpy arrays in (in place and copied) and out, streaming,
control commands, the GIL released while C++ waits, statistics, DOT and traces."""

import json
import threading
import time

import numpy as np
import pytest

import visiongraph as vg


@pytest.fixture
def ctx(plugin_path):
    context = vg.Context(modules=["vg.example", plugin_path])
    return context


def adder(ctx, bias=0.0):
    g = vg.Graph(ctx, "adder")
    g.add_scalar("a", value=2.0)
    g.add_scalar("b", value=3.0)
    g.add_virtual("sum", "scalar")
    g.add_node("add", "vg.example.add", target="cpu1", parameters={"a": "a", "b": "b", "sum": "sum"},
               attributes={"bias": bias})
    return g


def image_sum(ctx, width=64, height=48, fmt="bgr24", buffers=2):
    g = vg.Graph(ctx, "image_sum")
    g.add_image("frame", width, height, fmt)
    g.add_virtual("total", "scalar")
    g.add_node("sum", "pytest.image_sum", parameters={"image": "frame", "total": "total"})
    g.add_graph_parameter("sum", "image", buffers=buffers, name="input")
    g.add_graph_parameter("sum", "total", buffers=buffers)
    g.verify()
    return g


# ---- building and verify errors ----

def test_build_verify_process(ctx):
    g = adder(ctx, bias=1)  # an int for a number attribute is converted
    g.verify()
    assert g.is_verified
    g.process()
    assert g.scalar("sum") == 6.0
    g.set_scalar("a", 10)
    g.process()
    assert g.scalar("sum") == 14.0
    assert g.nodes == ["add"]
    assert g.data == ["a", "b", "sum"]
    assert g.node_target("add") == "cpu1"
    assert g.execution_order() == ["add"]
    assert g.meta("sum")["dtype"] == "f64"


def test_unknown_kernel_names_node_and_registered_kernels(ctx):
    g = vg.Graph(ctx)
    with pytest.raises(vg.Error, match=r"node 'x': unknown kernel 'vg.example.nope' \(registered: .*vg.example.add"):
        g.add_node("x", "vg.example.nope")


def test_verify_errors_name_node_and_key(ctx):
    g = vg.Graph(ctx)
    g.add_scalar("a")
    g.add_node("add", "vg.example.add", parameters={"a": "a"})
    with pytest.raises(vg.Error, match=r"node 'add'.*required.*'b'"):
        g.verify()

    g = adder(ctx)
    g.set_attribute("add", "gain", 2.0)
    with pytest.raises(vg.Error, match=r"node 'add'.*unknown attribute 'gain'"):
        g.verify()

    g = adder(ctx)
    g.set_target("add", "gpu7")
    with pytest.raises(vg.Error, match=r"node 'add'.*unknown target 'gpu7'"):
        g.verify()

    g = adder(ctx)
    with pytest.raises(TypeError, match=r"node 'add', attribute 'bias': expects number, got str"):
        g.set_attribute("add", "bias", "high")
    with pytest.raises(vg.Error, match=r"no parameter 'c'"):
        g.bind("add", "c", "a")
    with pytest.raises(vg.Error, match=r"no data object or graph parameter 'zz'"):
        g.bind("add", "a", "zz")


def test_a_failing_frame_raises_status_error_naming_the_node(ctx):
    g = vg.Graph(ctx, "limited")
    g.add_image("frame", 4, 2, "gray8")
    g.add_virtual("total", "scalar")
    g.add_node("sum", "pytest.image_sum", parameters={"image": "frame", "total": "total"}, attributes={"limit": 10})
    g.verify()
    g.process(inputs={"frame": np.ones((2, 4), np.uint8)})
    assert g.scalar("total") == 8.0
    with pytest.raises(vg.StatusError) as failed:
        g.process(inputs={"frame": np.full((2, 4), 2, np.uint8)})
    assert failed.value.status == vg.Status.kernel_error
    assert "node 'sum'" in str(failed.value) and "total over the limit" in str(failed.value)
    assert g.last_error.node == "sum"
    assert g.stats().frames_failed == 1


def test_errors_are_python_exception_classes():
    assert issubclass(vg.Error, RuntimeError)
    assert issubclass(vg.LoadError, vg.Error)
    assert issubclass(vg.StatusError, vg.Error)


# ---- arrays in: checks, in place, copies ----

def test_wrong_dtype_and_shape_are_refused_naming_the_input(ctx):
    g = image_sum(ctx)
    with pytest.raises(TypeError, match=r"input 'input' \(data object 'frame'\): expects a uint8 array of shape "
                                        r"\(48, 64, 3\).*got dtype float32"):
        g.set_input("input", np.zeros((48, 64, 3), np.float32))
    with pytest.raises(ValueError, match=r"input 'input'.*got shape \(64, 48, 3\)"):
        g.set_input("input", np.zeros((64, 48, 3), np.uint8))
    with pytest.raises(ValueError, match=r"got shape \(48, 64\)"):
        g.set_input("frame", np.zeros((48, 64), np.uint8))
    with pytest.raises(vg.Error, match="no data object or graph parameter 'frames'"):
        g.set_input("frames", np.zeros((48, 64, 3), np.uint8))


def test_zero_copy_input_graph_reads_the_numpy_array_in_place(ctx):
    g = image_sum(ctx)
    frame = np.full((48, 64, 3), 1, np.uint8)
    assert g.set_input("input", frame) is True  # imported, not copied
    # The graph's buffer 0 is the array's memory.
    assert g.image("frame", buffer=0).ctypes.data == frame.ctypes.data
    g.process()
    assert g.scalar("total") == frame.size
    frame[0, 0, 0] = 101  # changed after set_input: the next frame sees it without another call
    g.process()
    assert g.scalar("total") == frame.size + 100
    assert g.stats().queues[0].conversions == 0


def test_the_graph_keeps_an_imported_array_alive(ctx):
    g = image_sum(ctx)
    g.set_input("input", np.full((48, 64, 3), 2, np.uint8))  # no other reference to the array
    for _ in range(3):
        np.zeros((48, 64, 3), np.uint8) + 7  # allocations that would reuse freed memory
        g.process()
        assert g.scalar("total") == 2 * 48 * 64 * 3


def test_rows_with_padding_are_read_in_place(ctx):
    g = image_sum(ctx)
    padded = np.zeros((48, 80, 3), np.uint8)
    view = padded[:, :64]  # row pitch 240 bytes, 64 pixels used
    view[...] = 3
    assert g.set_input("input", view) is True
    g.process()
    assert g.scalar("total") == 3 * view.size


def test_layouts_that_cannot_be_imported_are_copied(ctx):
    g = image_sum(ctx)
    planar = np.ascontiguousarray(np.full((3, 48, 64), 5, np.uint8)).transpose(1, 2, 0)  # channel stride != 1
    assert g.set_input("input", planar) is False
    assert g.image("frame", buffer=0).ctypes.data != planar.ctypes.data
    g.process()
    assert g.scalar("total") == 5 * planar.size
    planar[...] = 0  # a copy: the graph does not see this
    g.process()
    assert g.scalar("total") == 5 * planar.size
    assert g.stats().queues[0].conversions == 1
    with pytest.raises(ValueError, match="cannot be read in place"):
        g.set_input("input", planar, copy=False)
    contiguous = np.full((48, 64, 3), 1, np.uint8)
    assert g.set_input("input", contiguous, copy=True) is False  # copy forced


def test_tensor_input_in_place_and_read_only_arrays(ctx):
    g = vg.Graph(ctx, "tensor_sum")
    g.add_tensor("t", [2, 3, 4], dtype=np.float32)
    g.add_virtual("total", "scalar")
    g.add_node("sum", "pytest.tensor_sum", parameters={"tensor": "t", "total": "total"}, attributes={"offset": 0.5})
    g.verify()
    t = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    assert g.set_input("t", t) is True
    g.process()
    assert g.scalar("total") == t.sum() + 0.5
    t *= 2
    g.process()
    assert g.scalar("total") == t.sum() + 0.5
    with pytest.raises(TypeError, match="expects a float32 array of shape \\(2, 3, 4\\).*got dtype float64"):
        g.set_input("t", t.astype(np.float64))
    frozen = np.ones((2, 3, 4), np.float32)
    frozen.setflags(write=False)
    assert g.set_input("t", frozen) is False  # not a graph-parameter input: a read-only array is copied
    g.process()
    assert g.scalar("total") == 24.5
    assert g.set_input("t", t[:, :, ::2].repeat(2, axis=2)) is True  # a new contiguous array
    view = g.tensor("t", buffer=0)
    assert view.dtype == np.float32 and view.shape == (2, 3, 4)


def test_gray_and_nv12_images(ctx):
    g = image_sum(ctx, 16, 8, "gray8")
    gray = np.full((8, 16, 1), 2, np.uint8)  # (H, W, 1) is accepted for gray8
    assert g.set_input("input", gray) is True
    g.process()
    assert g.scalar("total") == 2 * 16 * 8
    assert g.image("frame", buffer=0).shape == (8, 16)

    nv = vg.Graph(ctx, "nv12")
    nv.add_image("yuv", 16, 8, "nv12")
    nv.add_scalar("unused")
    nv.add_node("nop", "vg.example.nop", parameters={"in": "unused"})
    nv.verify()
    frame = np.arange(12 * 16, dtype=np.uint8).reshape(12, 16)
    assert nv.set_input("yuv", frame) is True
    np.testing.assert_array_equal(nv.image("yuv", copy=True), frame)
    with pytest.raises(ValueError, match=r"shape \(12, 16\)"):
        nv.set_input("yuv", np.zeros((8, 16), np.uint8))


# ---- arrays out ----

def test_output_images_as_views_and_copies(ctx):
    g = vg.Graph(ctx, "fill")
    g.add_virtual("img", "image")
    g.add_node("fill", "pytest.fill", attributes={"width": 10, "height": 6, "value": 9})
    g.bind("fill", "image", "img")
    g.verify()
    g.process()
    view = g.image("img")
    copy = g.image("img", copy=True)
    assert view.shape == (6, 10) and view.dtype == np.uint8
    assert (view == 9).all() and (copy == 9).all()
    view[...] = 1  # a view writes the graph's memory; the copy is independent
    assert (g.image("img") == 1).all() and (copy == 9).all()
    g.process()
    assert (view == 9).all()


def test_release_refuses_while_a_view_shows_the_memory_it_would_free(ctx):
    g = vg.Graph(ctx, "views")
    g.add_virtual("img", "image")
    g.add_node("fill", "pytest.fill", attributes={"width": 10, "height": 6, "value": 9})
    g.bind("fill", "image", "img")
    g.verify()
    g.process()
    view = g.image("img")
    copy = g.image("img", copy=True)
    with pytest.raises(ValueError, match=r"1 numpy view\(s\) of this graph's buffers are still alive"):
        g.release()
    assert (view == 9).all(), "the refused release freed nothing"
    del view
    g.release()  # no view left: the memory goes
    assert (copy == 9).all(), "a copy is the caller's own"


def test_output_graph_parameter_written_into_an_imported_array(ctx):
    g = vg.Graph(ctx, "fill_out")
    g.add_virtual("img", "image")
    g.add_node("fill", "pytest.fill", attributes={"width": 4, "height": 2, "value": 42})
    g.bind("fill", "image", "img")
    g.add_graph_parameter("fill", "image", buffers=1, name="out")
    g.verify()
    target = np.zeros((2, 4), np.uint8)
    g.start(enqueue_outputs=False)
    assert g.enqueue("out", target) == 0
    done = g.dequeue("out", timeout=5)
    assert done.status == vg.Status.ok
    assert (target == 42).all()  # the kernel wrote straight into the numpy array
    g.stop()
    readonly = np.zeros((2, 4), np.uint8)
    readonly.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        g.enqueue("out", readonly)


# ---- streaming ----

def test_streaming_enqueue_dequeue_in_order_with_tags(ctx):
    g = image_sum(ctx, buffers=3)
    g.start()
    frames = [np.full((48, 64, 3), i, np.uint8) for i in range(6)]
    totals = []
    for i, frame in enumerate(frames):
        if i >= 3:  # all three input buffers are with the graph: take one back first
            done_in = g.dequeue("input")
            assert done_in.status == vg.Status.ok
            out = g.dequeue("total")
            totals.append((out.tag, g.scalar("total", buffer=out.index)))
            g.enqueue("total", buffer=out.index)
        g.enqueue("input", frame, tag=100 + i)
    for _ in range(3):
        g.dequeue("input")
        out = g.dequeue("total")
        totals.append((out.tag, g.scalar("total", buffer=out.index)))
        g.enqueue("total", buffer=out.index)
    g.stop()
    assert totals == [(100 + i, float(i * 48 * 64 * 3)) for i in range(6)]
    assert g.stats().frames_completed == 6


def test_enqueue_needs_a_free_buffer_and_dequeue_times_out(ctx):
    g = image_sum(ctx, buffers=1)
    frame = np.zeros((48, 64, 3), np.uint8)
    with pytest.raises(vg.StatusError) as timeout:
        g.dequeue("input", timeout=0.05)  # nothing enqueued, not streaming
    assert timeout.value.status == vg.Status.timeout
    g.start()
    g.enqueue("input", frame)
    with pytest.raises(vg.Error, match="all 1 buffers are with the graph; dequeue one first"):
        g.enqueue("input", frame)
    assert g.dequeue("input").status == vg.Status.ok
    g.stop()
    assert g.dequeue("input", timeout=0.5) is None  # stopped, nothing left


def test_reject_new_policy_refuses_with_a_status(ctx):
    g = vg.Graph(ctx, "slow")
    g.add_scalar("x")
    g.add_virtual("y", "scalar")
    # Frame 0 must still be running when frame 2 is offered, or frame 1 moves up and 2 fits: a second of
    # work leaves room for a loaded machine (0.2 s did not always; stop("abandon") does not wait it out).
    g.add_node("wait", "vg.example.wait", parameters={"in": "x", "out": "y"}, attributes={"micros": 1000000})
    g.add_graph_parameter("wait", "in", buffers=4, policy="reject_new", queue_capacity=1)
    g.set_pipeline_depth(1)
    g.verify()
    g.start()
    g.enqueue("x", buffer=0)  # scalars are filled with set_input/set_scalar, enqueued by index
    g.enqueue("x", buffer=1)
    with pytest.raises(vg.StatusError) as refused:
        g.enqueue("x", buffer=2)
    assert refused.value.status == vg.Status.rejected
    g.stop("abandon")


# ---- commands ----

def test_a_node_over_two_targets_runs_as_two_replicas(ctx):
    g = vg.Graph(ctx, "replicated")
    g.add_scalar("a", value=2.0)
    g.add_scalar("b", value=3.0)
    g.add_virtual("sum", "scalar")
    g.add_node("add", "vg.example.add", target=["cpu0", "cpu1"], parameters={"a": "a", "b": "b", "sum": "sum"})
    g.verify()
    assert g.node_targets("add") == ["cpu0", "cpu1"]
    assert g.send_command("add", "set_bias", 1.0, replica=1) == "bias=1"
    assert g.send_command("add", "get_bias", replica=0) == "bias=0"
    values = []
    for _ in range(4):
        g.process()
        values.append(g.scalar("sum"))
    assert values == [5.0, 6.0, 5.0, 6.0]  # frames alternate between the replicas
    assert g.send_command("add", "set_bias", 0.5) == "bias=0.5"  # every replica
    g.process()
    g.process()
    assert g.scalar("sum") == 5.5
    with pytest.raises(IndexError, match="replica 2 does not exist"):
        g.send_command("add", "get_bias", replica=2)
    names = [n.name for n in g.stats().nodes]
    assert names == ["add", "add[cpu0]", "add[cpu1]"]
    assert [n.replica_of for n in g.stats().nodes] == ["", "add", "add"]


def test_commands_to_example_kernels(ctx):
    g = adder(ctx)
    g.verify()
    assert g.send_command("add", "get_bias") == "bias=0"
    assert g.send_command("add", "set_bias", 2.5) == "bias=2.5"
    assert g.send_command("add", 1, 4) == "bias=4"  # by id; an int for a number
    g.process()
    assert g.scalar("sum") == 9.0
    assert g.send_command("add", "get_bias", raw=True) == b"bias=4"
    with pytest.raises(TypeError, match="command 'set_bias': payload must be a number, got str"):
        g.send_command("add", "set_bias", "high")
    with pytest.raises(TypeError, match="command 'get_bias': payload must be None"):
        g.send_command("add", "get_bias", 1)
    with pytest.raises(vg.Error, match=r"node 'add' \(kernel vg.example.add\): no command reset .*set_bias"):
        g.send_command("add", "reset")
    with pytest.raises(vg.Error, match="no node 'sub'"):
        g.send_command("sub", "get_bias")

    w = vg.Graph(ctx, "waiter")
    w.add_node("wait", "vg.example.wait", attributes={"micros": 10})
    w.verify()
    assert w.send_command("wait", "set_micros", 20) == ""
    with pytest.raises(TypeError, match="payload must be an int, got float"):
        w.send_command("wait", "set_micros", 2.5)


def test_text_bytes_and_refused_commands(ctx):
    g = image_sum(ctx)
    assert g.send_command("sum", "echo", "hello there") == "hello there"
    assert g.send_command("sum", "poke", b"\x00\x01\x02") == "3 bytes"
    with pytest.raises(ValueError, match="at most 255"):
        g.send_command("sum", "echo", "x" * 300)
    with pytest.raises(vg.StatusError) as refused:
        g.send_command("sum", "fail")
    assert refused.value.status == vg.Status.invalid_argument
    assert "node 'sum', command 'fail': invalid_argument" in str(refused.value)
    assert g.send_command("sum", "set_offset", 1) == "offset=1"


def test_control_protocol_line(ctx):
    g = adder(ctx)
    g.verify()
    if not hasattr(g, "control"):
        pytest.skip("built without the service library (VG_BUILD_SERVICE=OFF)")
    assert g.control("add set_bias 3") == "ok bias=3"
    assert g.control("add nope").startswith("error")
    assert "add(vg.example.add)" in g.control("help")


# ---- the GIL ----

def test_gil_is_released_while_a_frame_runs(ctx):
    g = vg.Graph(ctx, "sleepy")
    g.add_node("wait", "vg.example.wait", attributes={"micros": 300000})
    g.verify()
    worker = threading.Thread(target=g.process)
    count = 0
    start = time.monotonic()
    worker.start()
    while worker.is_alive():
        count += 1  # runs only if process() let go of the GIL
    elapsed = time.monotonic() - start
    worker.join()
    assert elapsed >= 0.25
    assert count > 10000, f"the main thread ran only {count} loops in {elapsed:.2f} s"


# ---- observability ----

def test_stats_report_dot_and_trace(ctx, tmp_path):
    g = adder(ctx)
    g.verify()
    for _ in range(3):
        g.process()
    stats = g.stats()
    assert stats.frames_completed == 3
    assert stats.nodes[0].name == "add" and stats.nodes[0].executions == 3
    assert "add" in g.report_text() and "vg.example.add" in g.report_text()
    assert json.loads(g.report_json())["nodes"][0]["name"] == "add"
    dot = g.dot()
    assert dot.startswith("digraph") and "vg.example.add" in dot
    trace = json.loads(g.trace())
    assert any(event.get("name") == "add" for event in trace["traceEvents"])
    g.write_dot(str(tmp_path / "g.dot"))
    g.write_trace(str(tmp_path / "trace.json"))
    assert (tmp_path / "g.dot").read_text() == dot
    assert len(g.executions("add")) == 3
    sample = g.frame_sample(2)
    assert sample["frame"] == 2 and [s["node"] for s in sample["stages"]] == ["add"]
    assert sample["stages"][0]["status"] == vg.Status.ok and sample["stages"][0]["end_ns"] >= sample["stages"][0]["start_ns"]
    assert sample["failed_mask"] == 0 and sample["runtime_code"] == 0
    assert g.frame_sample(99) is None
    g.reset_stats()
    assert g.stats().frames_completed == 0


@pytest.mark.skipif(not vg.HAVE_OPENCV, reason="built without OpenCV: no visiongraph.imread")
def test_imread_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        vg.imread(str(tmp_path / "none.jpg"))
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a jpeg")
    with pytest.raises(vg.Error, match="junk.jpg': cannot decode the image"):
        vg.imread(str(junk))
    with pytest.raises(ValueError, match="unknown image format 'bgr32'"):
        vg.imread(str(junk), "bgr32")
