"""ndpad.tune: the tuner from Python writes the wisdom file libndpad reads, refuses on a
loaded machine without writing, and reports bad arguments as ValueError. Needs ndpad-tune:
the package's own (a wheel) or $NDPAD_TUNER (ci/test-python.sh points it at the build's)."""

import os
import subprocess
import sys

import pytest

import ndpad.tune as nt

# An installed wheel must ship its tuner: there, a missing one fails instead of skipping.
pytestmark = pytest.mark.skipif(nt.tuner_path() is None and not os.environ.get(
    "NDPAD_TEST_INSTALLED"), reason="no ndpad-tune (NDPAD_TUNER)")


def test_the_tuner_is_the_package_s_own_when_installed():
    if not os.environ.get("NDPAD_TEST_INSTALLED"):
        pytest.skip("source tree: the tuner comes from NDPAD_TUNER")
    path = nt.tuner_path()
    assert path is not None, "the installed package ships no ndpad/bin/ndpad-tune"
    assert os.path.dirname(path) == os.path.join(os.path.dirname(nt.__file__), "bin")

SPEC = "shape=16,128,128 pads=0,1,1/0,1,1 mode=constant esize=4"


def test_tune_writes_the_wisdom_libndpad_reads(tmp_path):
    cache = tmp_path / "wisdom"
    table = nt.tune(2, [SPEC], cache=cache, threads=1, noise=0.01, quiet=True)
    assert "given-constant" in table
    text = cache.read_text()
    assert text.startswith("ndpad-wisdom ")
    assert "\nclass " in text


def test_refused_tuning_raises_and_writes_nothing(tmp_path):
    cache = tmp_path / "wisdom"
    with pytest.raises(nt.TuningRefused, match="nothing tuned"):
        nt.tune(1, [SPEC], cache=cache, threads=1, noise=0.5, quiet=True)
    assert not cache.exists()


def test_bad_arguments_raise_value_error(tmp_path):
    with pytest.raises(ValueError, match="mode= wants"):
        nt.tune(1, ["shape=4 mode=mirror"], cache=tmp_path / "w", quiet=True)


def test_python_m_ndpad_tune_help():
    out = subprocess.run([sys.executable, "-m", "ndpad.tune", "--help"], capture_output=True,
                         text=True, env=dict(os.environ), timeout=60)
    assert out.returncode == 0, out.stderr
    assert "--budget" in out.stdout and "Exit status" in out.stdout
