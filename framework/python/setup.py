"""Builds the extension with CMake (the visiongraph source tree two levels up) and installs the CMake
component `python` into the wheel: visiongraph/_visiongraph*.so, __init__.py and the project's shared
libraries the extension loads through its $ORIGIN RUNPATH.

Environment:
  VG_CMAKE_BUILD_DIR  reuse this configured build tree (only `cmake --build --target vg_python` runs)
                      instead of configuring a new one under the setuptools build directory
  CMAKE_ARGS          extra arguments for the configure step (e.g. -DVG_BUILD_NPU=OFF)
  VG_JOBS             parallel build jobs (default 2)
  VG_PY_BUILD_BASE    setuptools' build directory (default: build/ next to this file)
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SOURCE_ROOT = HERE.parent.parent


def project_version():
    text = (SOURCE_ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(visiongraph\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError(f"no 'project(visiongraph VERSION x.y.z)' in {SOURCE_ROOT / 'CMakeLists.txt'}")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def run_step(self, *args):
        print("setup.py:", " ".join(shlex.quote(str(a)) for a in args), flush=True)
        subprocess.run([str(a) for a in args], check=True)

    def build_extension(self, ext):
        # get_ext_fullpath -> <build_lib>/visiongraph/_visiongraph.<suffix>: install with <build_lib> as prefix.
        prefix = Path(self.get_ext_fullpath(ext.name)).resolve().parent.parent
        jobs = os.environ.get("VG_JOBS", "2")
        reuse = os.environ.get("VG_CMAKE_BUILD_DIR")
        if reuse:
            build_dir = Path(reuse).resolve()
            if not (build_dir / "CMakeCache.txt").exists():
                raise RuntimeError(f"VG_CMAKE_BUILD_DIR={reuse}: not a configured CMake build tree")
        else:
            build_dir = Path(self.build_temp).resolve() / "cmake"
            configure = [
                "cmake", "-S", SOURCE_ROOT, "-B", build_dir,
                "-DCMAKE_BUILD_TYPE=Release",
                f"-DPython3_EXECUTABLE={sys.executable}",
                "-DVG_BUILD_PYTHON=ON",
                # Only what the module links: no tests, benches, apps, live input, MQTT.
                "-DVG_BUILD_TESTS=OFF", "-DVG_BUILD_BENCHMARKS=OFF", "-DVG_BUILD_APPS=OFF",
                "-DVG_BUILD_IO=OFF", "-DVG_BUILD_MQTT=OFF",
            ]
            configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
            self.run_step(*configure)
        self.run_step("cmake", "--build", build_dir, "--target", "vg_python", "-j", jobs)
        self.run_step("cmake", "--install", build_dir, "--component", "python", "--prefix", prefix)


build_base = os.environ.get("VG_PY_BUILD_BASE", str(HERE / "build"))
os.makedirs(build_base, exist_ok=True)  # egg_info wants its base to exist

setup(
    version=project_version(),
    packages=["visiongraph"],
    ext_modules=[CMakeExtension("visiongraph._visiongraph")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": build_base}, "egg_info": {"egg_base": build_base}},
    zip_safe=False,
)
