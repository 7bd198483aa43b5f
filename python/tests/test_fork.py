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


# -- issue 35: fork while other threads are inside the plan caches ---------------------------

STRESS_LIMIT = 5  # a child's alarm, in seconds: its calls take milliseconds
SHAPES = [(3 + k, 4 + k % 3) for k in range(8)]


def _fork_children(forks, child, what):
    """Forks `forks` children, each running `child()` (True when right) under an alarm;
    stops at the first that hangs or fails. Returns the number of forks made."""
    for k in range(forks):
        pid = os.fork()
        if pid == 0:
            code = 2
            try:
                signal.alarm(STRESS_LIMIT)
                code = 0 if child() else 1
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)  # the child's alarm bounds the wait
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
            pytest.fail(f"{what}: forked child {k} of {forks} hung")
        assert os.waitstatus_to_exitcode(status) == 0, f"{what}: forked child {k} failed"
    return forks


class _Workers:
    """`count` threads running target(stop, k) until the block ends; an exception in one
    fails the test."""

    def __init__(self, target, count=3):
        import threading
        self.stop = threading.Event()
        self.errors = []

        def run(k):
            try:
                target(self.stop, k)
            except BaseException as e:  # reported by __exit__
                self.errors.append(e)

        self.threads = [threading.Thread(target=run, args=(k,), daemon=True)
                        for k in range(count)]

    def __enter__(self):
        for t in self.threads:
            t.start()
        time.sleep(0.01)
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join()
        assert not self.errors, f"a worker thread failed: {self.errors[0]!r}"


def test_fork_while_threads_use_the_python_plan_cache():
    """Issue 35, defect 1: ndpad's Python plan cache lock (_lib._plans_lock), held by
    another thread at the fork, hung the child's ndpad.pad (3 of 10 children)."""
    arrays = [np.arange(s[0] * s[1], dtype=np.float32).reshape(s) for s in SHAPES]
    wants = [np.pad(a, ((1, 2), (2, 1)), mode="reflect") for a in arrays]

    def work(stop, k):
        n = 0
        while not stop.is_set():
            if n % 50 == 49:
                ndpad._lib.clear_plan_cache()
            ndpad.pad(arrays[(k + n) % len(arrays)], ((1, 2), (2, 1)), mode="reflect",
                      threads=1 + n % 3)
            n += 1

    def child():
        return all(np.array_equal(ndpad.pad(a, ((1, 2), (2, 1)), mode="reflect"), w)
                   for a, w in zip(arrays, wants))

    with _Workers(work):
        _fork_children(150, child, "Python plan cache")


def test_fork_while_threads_use_the_torch_native_plan_cache():
    """Issue 35, defect 1: the native torch kernels' plan cache (std::mutex), held by
    another thread at the fork, hung the child's F.pad (3 of 73 children)."""
    torch = pytest.importorskip("torch", minversion="2.4")
    import torch.nn.functional as F
    import ndpad.torch as nt
    from ndpad import _torch_native
    if _torch_native.load() is None:
        if os.environ.get("NDPAD_TEST_NATIVE") == "1":
            pytest.fail("NDPAD_TEST_NATIVE=1 but the native kernels are not built: %s"
                        % nt.native_status())
        pytest.skip("native kernels not built: %s" % nt.native_status())
    torch.set_num_threads(1)
    # The child's tensors are its own (not views): torch's per-tensor autograd lock (of a
    # view, a tensor another thread was using at the fork) is torch's matter, not ndpad's.
    xs = [torch.arange(2 * s[0] * s[1], dtype=torch.float32).reshape(1, 2, *s).clone()
          for s in SHAPES]
    theirs = [x.clone() for x in xs]
    wants = [F.pad(x, (2, 1, 1, 2), mode="reflect") for x in xs]  # torch's own kernel
    nt.install(threshold=0, native=True)
    try:
        assert nt.backend() == "native"

        def work(stop, k):
            n = 0
            while not stop.is_set():
                F.pad(theirs[(k + n) % len(xs)], (2, 1, 1, 1 + n % 2), mode="reflect")
                n += 1

        def child():
            return all(torch.equal(F.pad(x, (2, 1, 1, 2), mode="reflect"), w)
                       for x, w in zip(xs, wants))

        with _Workers(work):
            _fork_children(100, child, "torch native plan cache")
    finally:
        nt.uninstall()
