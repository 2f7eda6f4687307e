# Finds what the Python module (framework/python) needs: a Python 3 interpreter with its headers, and
# pybind11. Sets VG_PYTHON_FOUND. Debian's interpreter (/usr/bin/python3) is preferred over one that
# comes first on PATH (pyenv, conda): numpy and pytest are the Debian packages scripts/setup.sh installs
# for it. -DPython3_EXECUTABLE=... picks another one (setup.py passes the one pip runs under).
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
set(VG_PYTHON_FOUND OFF)
if(Python3_FOUND)
  # With Python3 already found, pybind11 uses it (its FindPython mode) instead of searching again.
  find_package(pybind11 2.6 CONFIG QUIET)
  if(pybind11_FOUND)
    set(VG_PYTHON_FOUND ON)
  endif()
endif()
