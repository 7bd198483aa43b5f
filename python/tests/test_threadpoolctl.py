"""threadpoolctl (PyPI) sees libndpad and caps it: threadpool_info() lists it, and inside
threadpool_limits(1) a pad leaving its threads to the library runs on the calling thread
only (no ndpad worker thread is woken), while the results stay numpy's."""

import os
import threading

import numpy as np
import pytest

import ndpad
from ndpad._lib import lib

threadpoolctl = pytest.importorskip("threadpoolctl", minversion="3.5")


def _ndpad_entries():
    return [i for i in threadpoolctl.threadpool_info() if i.get("internal_api") == "ndpad"]


def _worker_threads():
    names = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open("/proc/self/task/%s/comm" % task) as f:
                names.append(f.read().strip())
        except OSError:
            pass
    return [n for n in names if n.startswith("ndpad-worker")]


def test_threadpool_info_lists_libndpad():
    # The package's libndpad among them (a process may hold others: an engine extension
    # linked with its own copy lists its own).
    entries = _ndpad_entries()
    mine = [e for e in entries
            if os.path.realpath(e["filepath"]) == os.path.realpath(ndpad.library_path)]
    assert len(mine) == 1, threadpoolctl.threadpool_info()
    entry = mine[0]
    assert entry["user_api"] == "ndpad"
    assert os.path.basename(entry["filepath"]).startswith("libndpad")
    assert entry["version"] == ndpad.__version__
    assert entry["num_threads"] == lib.ndpad_get_default_threads() >= 1


def test_threadpool_limits_caps_and_restores():
    before = lib.ndpad_get_default_threads()
    x = np.random.default_rng(1).random((512, 1024), dtype=np.float32)
    with threadpoolctl.threadpool_limits(1):
        assert all(e["num_threads"] == 1 for e in _ndpad_entries())
        assert lib.ndpad_get_default_threads() == 1
        out = ndpad.pad(x, 3, "reflect")
        np.testing.assert_array_equal(out, np.pad(x, 3, "reflect"))
    assert lib.ndpad_get_default_threads() == before
    with threadpoolctl.threadpool_limits(limits={"ndpad": 1}):
        assert lib.ndpad_get_default_threads() == 1
    assert lib.ndpad_get_default_threads() == before


@pytest.mark.skipif(os.cpu_count() < 2, reason="one CPU: ndpad never starts a worker")
def test_limited_to_one_thread_no_worker_runs():
    """A fresh process (ndpad's workers start with the first multi-thread call): padding
    large arrays under threadpool_limits(1) starts no ndpad worker thread; without the limit
    the same calls do (so the check can fail)."""
    import subprocess
    import sys

    code = r'''
import os, numpy as np, threadpoolctl, ndpad
def workers():
    n = 0
    for t in os.listdir("/proc/self/task"):
        try:
            n += open("/proc/self/task/%s/comm" % t).read().startswith("ndpad-worker")
        except OSError:
            pass
    return n
x = np.ones((2048, 2048), np.float32)
with threadpoolctl.threadpool_limits(1):
    for _ in range(5):
        ndpad.pad(x, 4, "edge")
    print("limited", workers())
# Unlimited, the same calls start ndpad's workers: at once on an idle machine; on a busy one
# after the scheduler's back-off (the caller runs alone for up to a second after a stall),
# and a worker names itself only once it runs: so up to 20 s of calls.
import time
deadline = time.monotonic() + 20
while workers() == 0 and time.monotonic() < deadline:
    ndpad.pad(x, 4, "edge")
print("free", workers())
'''
    # the child imports the same ndpad as this process (the source tree or an install); no
    # OMP_NUM_THREADS (ndpad's default follows it: distributed's nannies, of an earlier
    # LocalCluster test in this process, set it to 1 in os.environ) nor a fixed team
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_NUM_THREADS", "NDPAD_THREADS_FIXED", "OMP_THREAD_LIMIT")}
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(ndpad.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    counts = dict(line.split() for line in out.stdout.split("\n") if line)
    assert counts["limited"] == "0", out.stdout
    assert int(counts["free"]) >= 1, out.stdout
