"""How the package finds libndpad (each case in a fresh interpreter)."""

import os
import subprocess
import sys

import pytest

import ndpad

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(ndpad.__file__)))
CHECK = "import ndpad, numpy as np; print(ndpad.library_path); " \
        "print(ndpad.pad(np.arange(4), 2, 'reflect').tolist())"


def run(env_library, code=CHECK):
    env = dict(os.environ)
    env.pop("NDPAD_LIBRARY", None)
    if env_library is not None:
        env["NDPAD_LIBRARY"] = env_library
    env["PYTHONPATH"] = PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, cwd=os.path.dirname(PYTHON_DIR), timeout=60)


def test_library_path_is_reported():
    assert os.path.exists(ndpad.library_path) or not os.path.isabs(ndpad.library_path)


def test_ndpad_library_file_and_directory():
    if not os.path.isabs(ndpad.library_path):
        pytest.skip("library loaded by soname; no file path to point NDPAD_LIBRARY at")
    targets = [ndpad.library_path]
    folder = os.path.dirname(ndpad.library_path)
    if any(os.path.exists(os.path.join(folder, n)) for n in ("libndpad.so", "libndpad.so.0")):
        targets.append(folder)
    for target in targets:
        r = run(target)
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == [r.stdout.splitlines()[0], "[2, 1, 0, 1, 2, 3, 2, 1]"]


def test_bad_ndpad_library_is_a_clear_import_error():
    r = run("/nonexistent/libndpad.so")
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "NDPAD_LIBRARY" in r.stderr
    assert "/nonexistent/libndpad.so" in r.stderr
