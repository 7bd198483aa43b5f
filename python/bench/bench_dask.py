"""ndpad.dask.pad against dask.array.pad on the same dask.distributed LocalCluster.

    NDPAD_LIBRARY=build/libndpad.so /usr/bin/python3 python/bench/bench_dask.py
    NDPAD_LIBRARY=build/libndpad.so /usr/bin/python3 python/bench/bench_dask.py --gib 0.5 --repeat 1
    NDPAD_LIBRARY=build/libndpad.so /usr/bin/python3 python/bench/bench_dask.py --scenarios zarr

A float32 2-D array (default 2 GiB in 128 MiB chunks), pads of --pad elements on every side
of every axis, modes constant, reflect and wrap, in three scenarios (--scenarios):

  persisted  the input (random values) is kept in the workers' memory (persist) once; the
             padded array is stored into a sink that makes each block contiguous and drops
             it (da.store into an object whose __setitem__ does only that, as a writer
             would): the padding and the transfers it needs, nothing else.
  sum        the input is made inside the graph (each block filled from its indices, a
             cheap generator) and the padded array is summed: pad, then reduce.
  zarr       the input is read from a zarr array (uncompressed, chunks as the input's,
             written once beforehand), padded, rechunked to the same chunks (zarr wants
             regular chunks; the pad's border chunks are not) and written to a zarr array;
             also ndpad.dask.pad(..., chunks=the zarr chunks), which needs no rechunk.

Each scenario also runs without a pad ("no pad": store, sum or zarr copy of the input), the
floor that scheduling, generation, reading and writing set. Reported per scenario, mode and
implementation, medians of --repeat runs (each repetition runs every implementation, in a
rotating order): wall time, the tasks the pad adds to the graph
(graph_tasks: keys beyond the input's), and the peak resident memory of any worker above
its resident memory before the run (sampled every 50 ms; in "persisted", the input is in
that baseline). One corner block of both results is compared first.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)  # python/: the source tree's ndpad
sys.path[:0] = [HERE, PYTHON_DIR]  # also for the worker processes:
os.environ["PYTHONPATH"] = os.pathsep.join([HERE, PYTHON_DIR] + [p for p in os.environ.get(
    "PYTHONPATH", "").split(os.pathsep) if p])

import dask  # noqa: E402
import dask.array as da  # noqa: E402
import distributed  # noqa: E402

import ndpad  # noqa: E402
import ndpad.dask  # noqa: E402


class Sink:
    """A da.store target that drops each block after making it contiguous, as a writer
    (zarr, a file, a network send) or compute()'s concatenation does: a block that is a
    view of the input costs nothing here, while a block dask.array.pad leaves as a
    broadcast constant (np.broadcast_to) is materialised, as it would be on its way out."""

    def __setitem__(self, key, value):
        np.ascontiguousarray(value)


def _fill(block_info=None):
    """An input block made from its indices: row + column / 2**14 (cheap, deterministic)."""
    info = block_info[None]
    (r0, r1), (c0, c1) = info["array-location"]
    out = np.empty(info["chunk-shape"], dtype=np.float32)
    np.add(np.arange(r0, r1, dtype=np.float32)[:, None],
           np.arange(c0, c1, dtype=np.float32)[None, :] / 2**14, out=out)
    return out


def _warm_up():
    """Loads ndpad, libndpad and its topology in a worker, as its first task would."""
    import ndpad
    ndpad.pad(np.zeros((2, 2), dtype=np.float32), 1, "reflect")


def _rss():
    import psutil
    return psutil.Process().memory_info().rss


class PeakSampler:
    """The largest resident memory of any worker while running, sampled from a thread."""

    def __init__(self, client, period=0.05):
        self.client, self.period = client, period
        self.peak, self._stop = 0, threading.Event()

    def __enter__(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self):
        while not self._stop.is_set():
            try:
                self.peak = max([self.peak] + list(self.client.run(_rss).values()))
            except Exception:
                pass
            self._stop.wait(self.period)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def no_pad(x, pad, mode):
    return x


def ndpad_chunked(x, pad, mode):
    return ndpad.dask.pad(x, pad, mode, chunks=x.chunksize)


IMPLS = {"ndpad.dask.pad": ndpad.dask.pad, "dask.array.pad": da.pad, "no pad": no_pad,
         "ndpad.dask.pad chunks=": ndpad_chunked}


class Scenario:
    """Makes the input once (setup) and runs one padded pipeline (run)."""

    def __init__(self, name, client, shape, chunks, workdir):
        self.name, self.client, self.shape, self.chunks = name, client, shape, chunks
        self.zarr_in = os.path.join(workdir, "in.zarr")
        self.zarr_out = os.path.join(workdir, "out.zarr")
        self.persisted = None

    def source(self):
        if self.name == "persisted":
            if self.persisted is None:
                x = da.random.RandomState(1).random_sample(self.shape, chunks=self.chunks)
                self.persisted = self.client.persist(x.astype(np.float32))
                distributed.wait(self.persisted)
            return self.persisted
        if self.name == "sum":
            return da.map_blocks(_fill, dtype=np.float32, chunks=tuple(
                tuple(min(c, n - i) for i in range(0, n, c)) for n, c in zip(self.shape,
                                                                           self.chunks)))
        if not os.path.exists(self.zarr_in):
            self.client.compute(da.map_blocks(
                _fill, dtype=np.float32, chunks=da.core.normalize_chunks(
                    self.chunks, self.shape)).to_zarr(self.zarr_in, compute=False),
                sync=True)
        return da.from_zarr(self.zarr_in)

    def run(self, y):
        if self.name == "persisted":
            da.store(y, Sink(), lock=False, compute=True)
        elif self.name == "sum":
            y.sum().compute()
        else:
            shutil.rmtree(self.zarr_out, ignore_errors=True)
            y.rechunk(self.chunks).to_zarr(self.zarr_out, compute=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gib", type=float, default=2.0, help="input size in GiB (float32)")
    ap.add_argument("--chunk-mib", type=float, default=128.0, help="chunk size in MiB")
    ap.add_argument("--pad", type=int, default=4, help="pad on every side of every axis")
    ap.add_argument("--workers", type=int, default=2, help="worker processes")
    ap.add_argument("--threads", type=int, default=1, help="threads per worker")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--modes", default="constant,reflect,wrap")
    ap.add_argument("--scenarios", default="persisted,sum,zarr")
    ap.add_argument("--workdir", default=None, help="for the zarr arrays (default: a "
                    "temporary directory, removed at the end)")
    args = ap.parse_args()

    side = int(np.sqrt(args.chunk_mib * 2**20 / 4))
    cols = side * 4
    rows = max(side, int(args.gib * 2**30 / 4 / cols) // side * side)
    shape, chunks = (rows, cols), (side, side)
    os.environ.setdefault("NDPAD_LIBRARY", ndpad.library_path)
    workdir = tempfile.mkdtemp(prefix="bench_dask.", dir=args.workdir)
    cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=args.threads,
                                       processes=True, dashboard_address=":0",
                                       memory_limit=0)
    client = distributed.Client(cluster)
    rows_out = []
    try:
        client.run(_warm_up)
        print("bench_dask: %d workers x %d thread(s), float32 %s = %.2f GiB in %s chunks "
              "(%.0f MiB), pad %d; ndpad %s, dask %s, libndpad %s; load average %.1f"
              % (args.workers, args.threads, shape, rows * cols * 4 / 2**30, chunks,
                 side * side * 4 / 2**20, args.pad, ndpad.__version__, dask.__version__,
                 ndpad.library_path, os.getloadavg()[0]), flush=True)
        for scenario_name in args.scenarios.split(","):
            scenario = Scenario(scenario_name, client, shape, chunks, workdir)
            x = scenario.source()
            for mode in args.modes.split(","):
                a, b = ndpad.dask.pad(x, args.pad, mode), da.pad(x, args.pad, mode)
                corner = (slice(0, side + args.pad), slice(0, side + args.pad))
                got, want = client.compute([a[corner], b[corner]], sync=True)
                assert np.array_equal(got, want), "results differ in mode %s" % mode
                names = [n for n in IMPLS
                         if not (n == "no pad" and mode != args.modes.split(",")[0]) and
                         not (n.endswith("chunks=") and scenario_name != "zarr")]
                times = {n: [] for n in names}
                peaks = {n: [] for n in names}
                tasks = {}
                for rep in range(args.repeat):
                    # Each repetition runs every implementation, in a rotating order, so
                    # that a load that comes and goes hits them alike.
                    for name in names[rep % len(names):] + names[:rep % len(names)]:
                        y = IMPLS[name](x, args.pad, mode)
                        tasks[name] = ndpad.dask.graph_tasks(y, x)
                        client.run(lambda: __import__("gc").collect())
                        base = max(client.run(_rss).values())
                        with PeakSampler(client) as sampler:
                            start = time.perf_counter()
                            scenario.run(y)
                            times[name].append(time.perf_counter() - start)
                        peaks[name].append(max(sampler.peak - base, 0))
                for name in names:
                    row = (scenario_name, "-" if name == "no pad" else mode, name,
                           statistics.median(times[name]), tasks[name],
                           statistics.median(peaks[name]) / 2**20)
                    rows_out.append(row)
                    print("  %-9s %-9s %-15s %7.2f s  %6d tasks  peak +%.0f MiB per worker"
                          % row, flush=True)
            scenario.persisted = None
    finally:
        client.close()
        cluster.close()
        shutil.rmtree(workdir, ignore_errors=True)
    print("\n| scenario | mode | implementation | wall time (s, median of %d) | tasks added | "
          "peak worker memory (MiB above the run's start) | speed-up |" % args.repeat)
    print("|---|---|---|---:|---:|---:|---:|")
    for scenario_name, mode, name, t, tasks, peak in rows_out:
        ref = [r[3] for r in rows_out if r[:3] == (scenario_name, mode, "dask.array.pad")]
        print("| %s | %s | %s | %.2f | %d | %.0f | %s |"
              % (scenario_name, mode, name, t, tasks, peak,
                 "%.2fx" % (ref[0] / t) if ref else ""))


if __name__ == "__main__":
    main()
