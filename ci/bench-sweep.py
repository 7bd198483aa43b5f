#!/usr/bin/env python3
"""Draw sweep.png from ndpad-bench-sweep's JSON (--benchmark_format=json).

    ndpad-bench-sweep --benchmark_format=json --benchmark_out=sweep.json
    python3 ci/bench-sweep.py sweep.json [more.json ...] [--out sweep.png]
                              [--baseline old.json]

Left: the row-length sweep (16 MiB of output, rows 16 B .. 64 KiB), time / memcpy time
against row bytes, one line per mode and thread count, back-to-back (solid) and
interleaved with memcpy (dashed). Right: the shape classes, back-to-back ratio per class
and thread count (and the baseline's, when given). A table of every case is printed too,
then each class's target (bench/standard-cases.c, carried in the JSON) checked both ways:
back-to-back and interleaved. Targets are reported, never enforced (exit status 0).
"""
import argparse
import json
import re
import sys


def load(paths):
    """{name without /manual_time: counters} of the runs of every JSON file: a benchmark run
    with --benchmark_repetitions gives its median aggregate (Google Benchmark's median of
    each counter over the repetitions), a single run itself."""
    runs, medians = {}, {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for b in data.get("benchmarks", []):
            if b.get("error_occurred"):
                continue
            name = re.sub(r"/manual_time$", "", b.get("run_name", b["name"]))
            if b.get("run_type", "iteration") == "iteration":
                runs[name] = b
            elif b.get("aggregate_name") == "median":
                medians[name] = b
    runs.update(medians)
    return runs


def sweep_lines(runs):
    """{(mode, threads): [(row_bytes, b2b, interleaved)]} of the sweep cases."""
    lines = {}
    for name, b in runs.items():
        m = re.match(r"sweep/(\w+)/row:(\d+)/threads:(\d+)$", name)
        if m:
            lines.setdefault((m.group(1), int(m.group(3))), []).append(
                (int(m.group(2)), b["vs_memcpy_b2b"], b["vs_memcpy_interleaved"]))
    return {k: sorted(v) for k, v in lines.items()}


def print_targets(runs):
    """Each class's target against its back-to-back and interleaved ratios."""
    rows = [(n, b) for n, b in sorted(runs.items()) if b.get("target_vs_memcpy")]
    if not rows:
        return
    print()
    print("Targets, both ways (back-to-back calls, and calls interleaved with memcpy):")
    met = {"b2b": 0, "interleaved": 0}
    for name, b in rows:
        limit = b["target_vs_memcpy"]
        marks = []
        for way, key in (("b2b", "vs_memcpy_b2b"), ("interleaved", "vs_memcpy_interleaved")):
            ok = b[key] <= limit + 5e-3  # the table's two decimals
            met[way] += ok
            marks.append("%s %s %.2f" % (way, "ok  " if ok else "MISS", b[key]))
        print("  %-40s <= %.2f   %s" % (name[len("class/"):], limit, "   ".join(marks)))
    print("  back-to-back: %d of %d targets met; interleaved: %d of %d" %
          (met["b2b"], len(rows), met["interleaved"], len(rows)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+", help="ndpad-bench-sweep JSON files (merged)")
    parser.add_argument("--out", default="sweep.png")
    parser.add_argument("--baseline", help="an earlier run's JSON to draw beside")
    args = parser.parse_args()
    runs = load(args.json)
    base = load([args.baseline]) if args.baseline else {}
    if not runs:
        sys.exit(f"bench-sweep.py: no benchmark runs in {' '.join(args.json)}")

    print(f"{'case':44} {'us':>10} {'b2b':>6} {'intl':>6}" + ("  base_b2b" if base else ""))
    for name, b in sorted(runs.items()):
        extra = f"  {base[name]['vs_memcpy_b2b']:8.2f}" if name in base else ""
        print(f"{name:44} {b['us']:10.1f} {b['vs_memcpy_b2b']:6.2f} "
              f"{b['vs_memcpy_interleaved']:6.2f}{extra}")

    print_targets(runs)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5))
    for (mode, threads), points in sorted(sweep_lines(runs).items()):
        rows = [p[0] for p in points]
        line, = left.plot(rows, [p[1] for p in points], marker="o",
                          label=f"{mode}, {threads} thr, back-to-back")
        left.plot(rows, [p[2] for p in points], linestyle="--", color=line.get_color(),
                  label=f"{mode}, {threads} thr, interleaved")
    for (mode, threads), points in sorted(sweep_lines(base).items()):
        left.plot([p[0] for p in points], [p[1] for p in points], linestyle=":",
                  color="grey", alpha=0.6)
    left.axhline(1.0, color="black", linewidth=0.8)
    left.set_xscale("log", base=2)
    left.set_yscale("log")  # short rows cost many times memcpy; long ones near 1
    left.set_xlabel("output row bytes (16 MiB of output)")
    left.set_ylabel("time / memcpy time")
    left.set_title("row-length sweep" + (" (grey dotted: baseline)" if base else ""))
    left.legend(fontsize=7)

    classes = sorted(n for n in runs if n.startswith("class/"))
    y = range(len(classes))
    right.barh([i + 0.2 for i in y], [runs[n]["vs_memcpy_b2b"] for n in classes], height=0.4,
               label="back-to-back")
    right.barh([i - 0.2 for i in y], [runs[n]["vs_memcpy_interleaved"] for n in classes],
               height=0.4, label="interleaved")
    if base:
        right.scatter([base[n]["vs_memcpy_b2b"] if n in base else float("nan") for n in classes],
                      [i + 0.2 for i in y], color="black", marker="|", s=200,
                      label="baseline back-to-back")
    right.set_yticks(list(y))
    right.set_yticklabels([n[len("class/"):] for n in classes], fontsize=8)
    right.axvline(1.0, color="black", linewidth=0.8)
    right.set_xlabel("time / memcpy time")
    right.set_title("shape classes")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
