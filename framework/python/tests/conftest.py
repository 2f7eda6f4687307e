"""Shared fixtures of the Python suites. CTest sets the environment (framework/python/tests/CMakeLists.txt):
PYTHONPATH (the built package), VG_PYTEST_PLUGIN (the test module library), VG_SOURCE_DIR, VG_BUILD_DIR,
VG_CLI (the visiongraph command, when built)."""

import os
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("VG_SOURCE_DIR", Path(__file__).resolve().parents[3]))


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR


@pytest.fixture(scope="session")
def plugin_path():
    path = os.environ.get("VG_PYTEST_PLUGIN")
    if not path or not Path(path).exists():
        pytest.fail("VG_PYTEST_PLUGIN must name the built libvg_python_test_plugin.so (run through ctest)")
    return path


@pytest.fixture(scope="session")
def assets_dir():
    """The sample assets (scripts/fetch_assets.sh); tests that need them are skipped, saying why, when absent."""
    path = Path(os.environ.get("VG_ASSETS_DIR", SOURCE_DIR / ".cache" / "assets"))
    needed = ["messi5.jpg", "face_detection_back_256x256_barracuda.onnx"]
    missing = [name for name in needed if not (path / name).exists()]
    if missing:
        pytest.skip(f"assets missing in {path}: {', '.join(missing)} (run scripts/fetch_assets.sh)")
    return path
