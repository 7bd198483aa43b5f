#!/usr/bin/env python3
"""Read ndpad-bench's Google Benchmark JSON and print the table a person reads at a glance:
case, mode, threads, GB/s, vs_memcpy, ISA and tile shape (Google Benchmark's own _median
rows of --benchmark_repetitions; its _stddev rows give the spread), the plan-creation time
and each case's target, which the benchmark puts in the JSON beside the result (counters
target_vs_memcpy and target_us, from bench/standard-cases.c): nothing about the cases is
written here. Also a plot of GB/s per case beside memcpy,
one panel per thread count (matplotlib, Agg; gnuplot when matplotlib is missing).
With --kernels, also the per-ISA filler speedups over scalar and the copies against memcpy
from ndpad-bench-kernels' JSON.

Usage: ci/bench-report.py build/results/bench.json [--plot build/results/bench.png]
                          [--kernels build/results/bench-kernels.json]
Exit status: 0 (targets are reported, never enforced), 1 when the JSON cannot be read, 2 when
an ndpad benchmark failed (skipped with an error: a wrong result or a failed call), 3 when
--expect-targets N is given and the JSON does not carry N targets."""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def load(path):
    """{run_name: row}: Google Benchmark's _median aggregate of each benchmark (the single
    run when it ran once, without aggregates), with row["stddev"] its _stddev aggregate (or
    {}), and the runs in the order the benchmark registered them. Failed runs go to errors."""
    with open(path) as f:
        data = json.load(f)
    rows, singles, stddevs, errors = {}, {}, {}, {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "error")
        elif b.get("run_type") != "aggregate":
            singles.setdefault(name, dict(b, repetitions_seen=1))
        elif b.get("aggregate_name") == "median":
            rows[name] = dict(b, repetitions_seen=b.get("repetitions", 1))
        elif b.get("aggregate_name") == "stddev":
            stddevs[name] = b
    for name, row in singles.items():
        rows.setdefault(name, row)
    for name, row in rows.items():
        row["stddev"] = stddevs.get(name, {})
    order = {name: k for k, name in enumerate(singles)}
    ordered = dict(sorted(rows.items(), key=lambda item: order.get(item[0], len(order))))
    return data.get("context", {}), ordered, errors


def short_name(run_name):
    """'ndpad/conv-edge/threads:2/manual_time' -> ['ndpad', 'conv-edge', 'threads:2']"""
    return [p for p in run_name.split("/")
            if p not in ("manual_time", "real_time") and not p.startswith("min_time:")]


def parse_label(label):
    out = {}
    for token in (label or "").split():
        if "=" in token:
            key, value = token.split("=", 1)
            out[key] = value
        else:
            out[token] = True
    return out


def split_case(case_mode):
    case, _, mode = case_mode.rpartition("-")
    return (case, mode) if mode in MODES else (case_mode, "")


def case_rows(rows):
    """The ndpad and XNNPACK case results, and the memcpy ones by (case, threads)."""
    cases, memcpy, plan = [], {}, None
    for name, row in rows.items():
        parts = short_name(name)
        if parts[0] == "plan":
            plan = (name, row)
            continue
        if len(parts) < 3 or not parts[2].startswith("threads:"):
            continue
        threads = int(parts[2].split(":")[1])
        gbs = row.get("GB/s", row.get("bytes_per_second", 0) / 1e9)
        if parts[0] == "memcpy":
            memcpy[(parts[1], threads)] = gbs
            continue
        case, mode = split_case(parts[1])
        label = parse_label(row.get("label", ""))
        cases.append({
            "impl": parts[0], "case": case, "mode": mode, "threads": threads, "gbs": gbs,
            "vs_memcpy": row.get("vs_memcpy", float("nan")),
            "vs_stddev": row["stddev"].get("vs_memcpy"),
            "target": row.get("target_vs_memcpy"),
            "order": len(cases),
            "memcpy_gbs": row.get("memcpy_GB/s", float("nan")),
            "time_us": row.get("us", float("nan")),
            "reps": row.get("repetitions_seen", 1),
            "isa": label.get("isa", "-" if parts[0] == "ndpad" else parts[0]),
            "tile": label.get("tile", ""), "tiles": label.get("tiles", ""),
            "plan_threads": label.get("plan_threads", label.get("threads", "")),
            "stream": "stream" in label, "source": label.get("source", ""),
        })

    # by threads, then as the benchmark registered them (the table's order), ndpad first
    first = {}
    for c in cases:
        first.setdefault((c["case"], c["mode"]), c["order"])
    cases.sort(key=lambda c: (c["threads"], first[(c["case"], c["mode"])],
                              c["impl"] != "ndpad", c["impl"]))
    return cases, memcpy, plan


def unit_scale(row):
    return {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}.get(row.get("time_unit", "ns"), 1e-9)


def fmt(x, digits=2):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def print_cases(context, cases, memcpy, plan, errors):
    reps = max([c["reps"] for c in cases] or [1])
    print("ndpad-bench on %s: %s CPUs, load average %s, %d repetition%s" % (
        context.get("host_name", "?"), context.get("num_cpus", "?"),
        " ".join("%.2f" % x for x in context.get("load_avg", [])), reps,
        "" if reps == 1 else "s"))
    print("GB/s: (input read + output written) / median time per call (inplace: border bytes "
          "only).\nvs_memcpy: median of (time of the call / time of the memcpy of the same "
          "output bytes, same threads,\n  run just before it); 1.00 = as fast as copying the "
          "output. memcpy GB/s: 2 x output bytes / median\n  time of those memcpy calls. "
          "Every figure is Google Benchmark's median over the repetitions; +-: the\n  "
          "standard deviation of vs_memcpy over them.")
    header = ("case", "mode", "threads", "impl", "GB/s", "memcpy", "vs_memcpy", "+-",
              "us/call", "ISA", "tile shape (rows x cols, tiles, threads used, source)")
    line = "%-8s %-9s %7s %-7s %6s %6s %9s %-13s %8s %-7s %s"
    print()
    print(line % header)
    print("-" * 120)
    last_threads = None
    for c in cases:
        if last_threads is not None and c["threads"] != last_threads:
            print()
        last_threads = c["threads"]
        tile = ""
        if c["tile"]:
            tile = "%s, %s tiles, %s thr%s%s" % (
                c["tile"], c["tiles"], c["plan_threads"], ", stream" if c["stream"] else "",
                ", " + c["source"] if c["source"] else "")
        elif c["plan_threads"]:
            tile = "%s thr" % c["plan_threads"]
        spread = ""
        if c["vs_stddev"] is not None and c["reps"] > 1:
            spread = "+-" + fmt(c["vs_stddev"])
        print(line % (c["case"], c["mode"], c["threads"], c["impl"], fmt(c["gbs"], 1),
                      fmt(c["memcpy_gbs"], 1), fmt(c["vs_memcpy"]), spread,
                      fmt(c["time_us"], 1), c["isa"], tile))
    if plan is not None:
        name, row = plan
        t = row.get("real_time", float("nan")) * unit_scale(row) * 1e6
        print("\nplan/conv: ndpad_plan_create + ndpad_plan_destroy of conv, default options, "
              "cache warm: %s us (median)" % fmt(t, 2))
    for name, message in sorted(errors.items()):
        print("ERROR %s: %s" % (name, message))


def print_targets(cases, plan):
    """Each case's target, as the benchmark reported it beside the result, with its margin:
    reported, not enforced (a shared or loaded machine moves them)."""
    print("\nTargets (from the benchmark's JSON; measured here, not enforced):")
    results = []
    for c in cases:
        if c["impl"] != "ndpad" or not c["target"]:
            continue
        limit, v = c["target"], c["vs_memcpy"]
        ok = v <= limit
        results.append(ok)
        print("  %-4s %-18s threads %d  vs_memcpy <= %.2f  got %5s%s" % (
            "ok" if ok else "MISS", c["case"] + "-" + c["mode"], c["threads"], limit, fmt(v),
            "" if ok else "  (%.1f%% over)" % (100 * (v / limit - 1))))
    if plan is not None and plan[1].get("target_us"):
        limit = plan[1]["target_us"]
        t = plan[1].get("real_time", float("nan")) * unit_scale(plan[1]) * 1e6
        ok = t < limit
        results.append(ok)
        print("  %-4s %-18s            plan time < %g us   got %5s us%s" % (
            "ok" if ok else "MISS", "plan/conv", limit, fmt(t), "" if ok else
            "  (%.1fx the target)" % (t / limit)))
    print("  %d of %d targets met" % (sum(results), len(results)))
    return len(results)


def plot(cases, memcpy, path):
    """Bars: ndpad GB/s per case beside memcpy of the same output (and XNNPACK), a panel per
    thread count; each ndpad bar is annotated with its vs_memcpy."""
    threads = sorted({c["threads"] for c in cases})
    if not threads:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return plot_gnuplot(cases, memcpy, path, threads)

    fig, axes = plt.subplots(len(threads), 1, figsize=(13, 4.2 * len(threads)), squeeze=False)
    for ax, t in zip(axes[:, 0], threads):
        nd = [c for c in cases if c["threads"] == t and c["impl"] == "ndpad"]
        labels = [c["case"] + ("\n" + c["mode"] if c["mode"] else "") for c in nd]
        x = list(range(len(nd)))
        width = 0.27
        mem = [c["memcpy_gbs"] for c in nd]  # the memcpy paired with each case
        xnn = {(c["case"], c["mode"]): c["gbs"] for c in cases
               if c["threads"] == t and c["impl"] == "xnnpack"}
        bars = ax.bar([i - width for i in x], [c["gbs"] for c in nd], width,
                      label="ndpad", color="#2b6cb0")
        ax.bar(x, mem, width, label="memcpy of the output", color="#a0aec0")
        if xnn:
            ax.bar([i + width for i in x], [xnn.get((c["case"], c["mode"]), 0) for c in nd],
                   width, label="XNNPACK constant pad", color="#dd6b20")
        for bar, c in zip(bars, nd):
            ax.annotate("%.2f" % c["vs_memcpy"], (bar.get_x() + bar.get_width() / 2,
                                                  bar.get_height()),
                        ha="center", va="bottom", fontsize=7, rotation=90,
                        xytext=(0, 2), textcoords="offset points")
        ax.set_xticks(x)
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_ylabel("GB/s (read + written)")
        ax.set_title("threads: %d   (numbers on the ndpad bars: vs_memcpy, time / memcpy's)"
                     % t, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def plot_gnuplot(cases, memcpy, path, threads):
    if shutil.which("gnuplot") is None:
        print("bench-report: neither matplotlib nor gnuplot is installed: no plot")
        return False
    with tempfile.TemporaryDirectory() as tmp:
        script = ['set terminal pngcairo size 1300,%d' % (420 * len(threads)),
                  'set output "%s"' % path, 'set multiplot layout %d,1' % len(threads),
                  'set style data histograms', 'set style fill solid', 'set boxwidth 0.9',
                  'set xtics rotate by -30 font ",8"', 'set ylabel "GB/s (read + written)"']
        for t in threads:
            dat = os.path.join(tmp, "t%d.dat" % t)
            with open(dat, "w") as f:
                for c in cases:
                    if c["threads"] == t and c["impl"] == "ndpad":
                        f.write('"%s-%s" %f %f\n' % (c["case"], c["mode"], c["gbs"],
                                                     c["memcpy_gbs"]))
            script.append('set title "threads: %d"' % t)
            script.append('plot "%s" using 2:xtic(1) title "ndpad", "" using 3 title "memcpy"'
                          % dat)
        script.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(script), text=True, check=True)
    return True


def print_kernels(path):
    _, rows, errors = load(path)
    fills, copies = {}, {}
    for name, row in rows.items():
        parts = short_name(name)
        t = row.get("real_time", float("nan")) * unit_scale(row)
        if parts[0] == "fill" and len(parts) == 5:
            _, mode, size, isa, run = parts
            fills[(mode, size, isa, int(run.split(":")[1]))] = t
        elif parts[0] == "copy" and len(parts) == 3:
            copies[(parts[1], parts[2])] = t
    runs = sorted({k[3] for k in fills})
    isas = sorted({k[2] for k in fills} - {"scalar"})
    print("\nFillers: scalar ns per call, and each ISA's speedup over scalar (scalar time / "
          "its time), by run length")
    head = "%-10s %-7s" % ("operation", "elem") + "".join(
        ["  scalar ns:" + "".join("%8d" % r for r in runs)] +
        ["  %s x:" % i + "".join("%7d" % r for r in runs) for i in isas])
    print(head)
    sizes = sorted({k[1] for k in fills}, key=lambda s: (s.endswith("any"), int(
        re.sub(r"\D.*", "", s[1:]) or 0)))
    for mode in ("broadcast", "reverse", "forward"):  # kernels are keyed by operation
        for size in sizes:
            if (mode, size, "scalar", runs[0]) not in fills:
                continue
            line = "%-10s %-7s" % (mode, size) + "  scalar ns:" + "".join(
                "%8.1f" % (fills[(mode, size, "scalar", r)] * 1e9) for r in runs)
            for isa in isas:
                line += "  %s x:" % isa + "".join(
                    "%7.2f" % (fills[(mode, size, "scalar", r)] / fills[(mode, size, isa, r)])
                    if (mode, size, isa, r) in fills else "%7s" % "-" for r in runs)
            print(line)
    if copies:
        print("\nCopies: GB/s (bytes copied per second) and time / memcpy's")
        sizes = sorted({k[1] for k in copies}, key=lambda s: int(re.sub(r"\D", "", s)) * (
            1 << 20 if s.endswith("MiB") else 1 << 10))
        kinds = sorted({k[0] for k in copies}, key=lambda k: (k != "memcpy", k))
        print("%-18s" % "kernel" + "".join("%20s" % s for s in sizes))
        for kind in kinds:
            cells = []
            for s in sizes:
                t, m = copies.get((kind, s)), copies.get(("memcpy", s))
                if t is None:
                    cells.append("%20s" % "-")
                    continue
                gbs = int(re.sub(r"\D", "", s)) * (1 << 20 if s.endswith("MiB") else 1 << 10) \
                    / t / 1e9
                cells.append("%12.1f (%4.2fx)" % (gbs, t / m) if m else "%20.1f" % gbs)
            print("%-18s" % kind + "".join(cells))
    for name, message in sorted(errors.items()):
        print("ERROR %s: %s" % (name, message))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="ndpad-bench --benchmark_out JSON")
    parser.add_argument("--plot", help="write the plot here (.png or .svg)")
    parser.add_argument("--kernels", help="ndpad-bench-kernels --benchmark_out JSON")
    parser.add_argument("--expect-targets", type=int, metavar="N",
                        help="fail (exit 3) unless the JSON carries exactly N targets (a check "
                             "that the benchmark still writes them)")
    args = parser.parse_args()
    try:
        context, rows, errors = load(args.json)
    except (OSError, ValueError) as e:
        print("bench-report: cannot read %s: %s" % (args.json, e), file=sys.stderr)
        return 1
    cases, memcpy, plan = case_rows(rows)
    print_cases(context, cases, memcpy, plan, errors)
    targets = print_targets(cases, plan)
    if args.kernels:
        try:
            print_kernels(args.kernels)
        except (OSError, ValueError) as e:
            print("bench-report: cannot read %s: %s" % (args.kernels, e), file=sys.stderr)
    if args.plot and plot(cases, memcpy, args.plot):
        print("\nplot: %s" % args.plot)
    if args.expect_targets is not None and targets != args.expect_targets:
        print("bench-report: %d targets in the JSON, expected %d" % (targets,
              args.expect_targets), file=sys.stderr)
        return 3
    # A failed ndpad (or memcpy, plan) run is a bug: fail the job. A peer that fails does not.
    own = [name for name in errors if not name.startswith("xnnpack/")]
    if own:
        print("bench-report: %d ndpad benchmark(s) failed" % len(own), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
