"""visiongraph from Python: load or build graphs of C++ kernels, feed them numpy arrays, read results.

    import visiongraph as vg
    g = vg.load_graph("apps/face_detect/face_detect.yaml", size=(640, 480))
    g.process(inputs={"input": frame})          # frame: uint8 array (480, 640, 3), BGR
    for d in g.detections("detections"):
        print(d.class_id, d.score, d.box)

Full guide: docs/python.md.
"""

from ._visiongraph import (  # noqa: F401  (the public API is the extension's)
    AttributeInfo,
    CommandInfo,
    Context,
    Dequeued,
    Detection,
    Error,
    Graph,
    GraphStats,
    HAVE_OPENCV,
    KernelInfo,
    LoadError,
    NodeStats,
    ParamInfo,
    QueueStats,
    RunError,
    Status,
    StatusError,
    __version__,
    builtin_modules,
    load_graph,
    load_graph_text,
    request_stop,
    run,
)

if HAVE_OPENCV:
    from ._visiongraph import imread  # noqa: F401


def kernels(modules=None):
    """Every kernel of the given modules (default: every built-in module), as KernelInfo objects."""
    context = Context(modules=builtin_modules() if modules is None else modules)
    return context.kernels()


__all__ = [name for name in dir() if not name.startswith("_")]
