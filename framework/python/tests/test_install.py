"""`pip install` into a virtualenv, offline: pip runs setup.py, which builds the extension with CMake and
installs it with the shared libraries it needs; the installed package then works from outside the tree.

Under CTest the build tree is reused (VG_CMAKE_BUILD_DIR = VG_BUILD_DIR), so the test takes seconds.
VG_PY_INSTALL_FRESH=1 makes setup.py configure and build a new tree instead (minutes; see docs/python.md)."""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

CHECK = textwrap.dedent("""\
    import sys, numpy as np, visiongraph as vg
    assert vg.__file__.startswith(sys.prefix), vg.__file__
    ctx = vg.Context(modules=["vg.example", sys.argv[1]])
    g = vg.Graph(ctx, "installed")
    g.add_image("frame", 8, 4, "gray8")
    g.add_virtual("total", "scalar")
    g.add_node("sum", "pytest.image_sum", parameters={"image": "frame", "total": "total"})
    g.verify()
    frame = np.full((4, 8), 3, np.uint8)
    assert g.set_input("frame", frame) is True
    g.process()
    assert g.scalar("total") == 96.0, g.scalar("total")
    print("installed ok", vg.__file__)
    """)


def test_pip_install_into_a_virtualenv(source_dir, plugin_path):
    fresh = os.environ.get("VG_PY_INSTALL_FRESH") == "1"
    build_dir = os.environ.get("VG_BUILD_DIR")
    if not fresh and not build_dir:
        pytest.skip("VG_BUILD_DIR (a configured build tree) is not set; set it, or VG_PY_INSTALL_FRESH=1")
    work = Path(tempfile.mkdtemp(prefix="vg-venv-", dir="/tmp"))
    try:
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VG_CMAKE_BUILD_DIR")}
        env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", VG_PY_BUILD_BASE=str(work / "build"))
        if not fresh:
            env["VG_CMAKE_BUILD_DIR"] = build_dir
        python = venv / "bin" / "python"
        result = subprocess.run([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-index",
                                 str(source_dir / "framework" / "python")],
                                env=env, capture_output=True, text=True, timeout=3000 if fresh else 240)
        assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
        installed = list((venv / "lib").glob("python3*/site-packages/visiongraph"))
        assert len(installed) == 1, installed
        files = sorted(p.name for p in installed[0].iterdir())
        assert any(f.startswith("_visiongraph.") and f.endswith(".so") for f in files), files
        assert any(f.startswith("libvisiongraph.so") for f in files), files
        assert "__init__.py" in files
        # From a directory outside the tree, without PYTHONPATH: only the installed copy can be found.
        run = subprocess.run([str(python), "-c", CHECK, plugin_path], cwd=work, env=env, capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "installed ok" in run.stdout
        uninstall = subprocess.run([str(python), "-m", "pip", "uninstall", "-y", "visiongraph"], env=env,
                                   capture_output=True, text=True, timeout=60)
        assert uninstall.returncode == 0, uninstall.stderr
        assert not installed[0].exists()
    finally:
        shutil.rmtree(work, ignore_errors=True)
