"""What a user pays for the pad on a dask.distributed LocalCluster: ndpad.dask.pad against
dask.array.pad in interleaved pairs (issue 33's measurement).

    python python/bench/bench_dask_pairs.py                          # 2 GiB, pads 4 and 1024
    python python/bench/bench_dask_pairs.py --shape 8,4096,4096 --chunks 1,2048,4096 --pads 4

A float32 array (default 16384 x 32768 = 2 GiB in 4096 x 8192 chunks of 128 MiB) is made
and persisted on a LocalCluster of 2 worker processes with 1 thread each. Each pipeline is
pad -> an identity map_blocks -> persist, waited for, then dropped. A round runs the same
pipeline without the pad (the floor), ndpad.dask.pad and dask.array.pad (which of the two
goes first alternates); --pairs rounds per mode and pad. Reported: the medians of the wall
times, of the time above the round's floor, and of the pair ratios ndpad / dask (time above
the floor, and whole wall time); the tasks each pad adds to the graph
(ndpad.dask.graph_tasks); the peak resident memory of any worker above its level before the
run (sampled every 20 ms; the persisted input is in that level); and whether ndpad's and
dask's results are equal (a sample of blocks, compared on the workers' results).
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]  # bench_dask, then python/'s ndpad

import dask.array as da  # noqa: E402
import distributed  # noqa: E402

import ndpad.dask  # noqa: E402
from bench_dask import PeakSampler, _rss, _warm_up  # noqa: E402


def identity(block):
    return block


def pipeline(x, impl, pad, mode):
    y = x if impl is None else impl(x, pad, mode)
    return y.map_blocks(identity, dtype=y.dtype)


def run(client, x, impl, pad, mode):
    y = pipeline(x, impl, pad, mode)
    base = max(client.run(_rss).values())
    with PeakSampler(client, period=0.02) as sampler:
        t0 = time.perf_counter()
        y = y.persist()
        distributed.wait(y)
        elapsed = time.perf_counter() - t0
    del y
    return elapsed, max(sampler.peak - base, 0)


def check(client, x, pad, mode):
    """ndpad's and dask's results agree on the corners and one interior-border block."""
    a, b = ndpad.dask.pad(x, pad, mode), da.pad(x, pad, mode)
    if a.shape != b.shape:
        return False
    idx = tuple(slice(0, min(64, n)) for n in a.shape)
    idx2 = tuple(slice(max(n - 64, 0), n) for n in a.shape)
    got = client.compute([a[idx], b[idx], a[idx2], b[idx2]], sync=True)
    return np.array_equal(got[0], got[1]) and np.array_equal(got[2], got[3])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", default="16384,32768")
    p.add_argument("--chunks", default="4096,8192")
    p.add_argument("--pads", default="4,1024")
    p.add_argument("--modes", default="constant,reflect,wrap")
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    shape = tuple(int(v) for v in args.shape.split(","))
    chunks = tuple(int(v) for v in args.chunks.split(","))
    gib = np.prod(shape) * 4 / 2**30
    cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                       processes=True, dashboard_address=":0",
                                       memory_limit=0)
    client = distributed.Client(cluster)
    client.run(_warm_up)
    x = da.random.default_rng(0).random(shape, chunks=chunks, dtype=np.float32).persist()
    distributed.wait(x)
    print("bench_dask_pairs: float32 %s = %.2f GiB in chunks %s (%d MiB), %d workers x 1 "
          "thread, dask %s, distributed %s, numpy %s; load average %s"
          % (shape, gib, chunks, np.prod(chunks) * 4 >> 20, args.workers,
             da.core.dask.__version__ if hasattr(da.core, "dask") else "?",
             distributed.__version__, np.__version__,
             " ".join("%.1f" % v for v in os.getloadavg())), flush=True)
    impls = {"ndpad": ndpad.dask.pad, "dask": da.pad}
    rows = []
    for pad in (int(v) for v in args.pads.split(",")):
        for mode in args.modes.split(","):
            run(client, x, None, pad, mode)  # warm: the pipeline's first run
            for impl in impls.values():
                run(client, x, impl, pad, mode)
            res = {k: [] for k in ("floor", "ndpad", "dask")}
            mem = {k: [] for k in ("ndpad", "dask")}
            for i in range(args.pairs):
                res["floor"].append(run(client, x, None, pad, mode)[0])
                order = ("ndpad", "dask") if i % 2 == 0 else ("dask", "ndpad")
                for name in order:
                    t, m = run(client, x, impls[name], pad, mode)
                    res[name].append(t)
                    mem[name].append(m)
            over = {k: [t - f for t, f in zip(res[k], res["floor"])] for k in impls}
            ratio_over = statistics.median(
                a / b if b > 0 else float("inf") for a, b in zip(over["ndpad"], over["dask"]))
            ratio_wall = statistics.median(
                a / b for a, b in zip(res["ndpad"], res["dask"]))
            tasks = {k: ndpad.dask.graph_tasks(f(x, pad, mode), x) for k, f in impls.items()}
            row = (mode, pad, statistics.median(res["floor"]),
                   statistics.median(res["ndpad"]), statistics.median(over["ndpad"]),
                   statistics.median(res["dask"]), statistics.median(over["dask"]),
                   ratio_wall, ratio_over, tasks["ndpad"], tasks["dask"],
                   max(mem["ndpad"]) / 2**20, max(mem["dask"]) / 2**20,
                   check(client, x, pad, mode))
            rows.append(row)
            print("%-8s pad %4d: floor %.3f s; ndpad %.3f s (+%.3f), dask %.3f s (+%.3f); "
                  "pair ratio wall %.2f, above floor %.2f; tasks %d vs %d; peak MiB %.0f vs "
                  "%.0f; equal %s" % row, flush=True)
    print()
    print("| mode | pad | no pad (s) | ndpad.dask.pad (s) | above floor | dask.array.pad (s) "
          "| above floor | pair ratio (wall) | pair ratio (above floor) | tasks ndpad / dask "
          "| peak worker MiB ndpad / dask | equal |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %d / %d "
              "| %.0f / %.0f | %s |" % r)
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
