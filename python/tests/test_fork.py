"""A forked child (multiprocessing's fork start method, DataLoader workers, pre-forking
servers) never hangs in ndpad and gets numpy's result (issue 12, defect 1). The parent runs
a multi-threaded pad first, so the OpenMP runtime's thread pool exists when it forks; every
child is waited for with a time limit and killed if it hangs."""

import os
import signal
import sys
import time

import numpy as np
import pytest

import ndpad

TIME_LIMIT = 30.0

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")


def _wait(pid, limit=TIME_LIMIT):
    """The child's exit code, or None after killing it when it runs past `limit` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def _child_pads(x, expected):
    """Runs in the child: 0 when ndpad matches numpy, 1 when not, 2 on an exception."""
    try:
        signal.alarm(int(TIME_LIMIT))
        ok = np.array_equal(ndpad.pad(x, 5, mode="reflect"), expected)
        ok = ok and np.array_equal(ndpad.pad(x, ((1, 2), (3, 4)), mode="edge"),
                                   np.pad(x, ((1, 2), (3, 4)), mode="edge"))
        return 0 if ok else 1
    except BaseException:  # the parent only sees the exit code
        return 2


def test_forked_child_pads_without_hanging():
    x = np.arange(512 * 512, dtype=np.float32).reshape(512, 512)
    expected = np.pad(x, 5, mode="reflect")
    assert np.array_equal(ndpad.pad(x, 5, mode="reflect"), expected)  # the parent's team
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os._exit(_child_pads(x, expected))
    code = _wait(pid)
    assert code is not None, "the forked child hung in ndpad.pad"
    assert code == 0, f"the forked child got a wrong result or an error (exit code {code})"
    assert np.array_equal(ndpad.pad(x, 5, mode="reflect"), expected)  # parent still fine


def test_multiprocessing_fork_pool():
    import multiprocessing

    x = np.arange(300 * 700, dtype=np.float64).reshape(300, 700)
    ndpad.pad(x, 3, mode="wrap")
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        result = pool.map_async(_pool_job, [1, 2, 3, 4])
        sums = result.get(timeout=TIME_LIMIT)
    assert sums == [float(np.pad(x, k, mode="wrap").sum()) for k in (1, 2, 3, 4)]


def _pool_job(k):
    x = np.arange(300 * 700, dtype=np.float64).reshape(300, 700)
    return float(ndpad.pad(x, k, mode="wrap").sum())
