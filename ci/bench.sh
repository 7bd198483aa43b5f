#!/usr/bin/env bash
# The benchmark job: Release build, a short tuning run (ndpad-tune) when the tuner exists,
# the standard cases (ndpad-bench, Google Benchmark, 3 repetitions) into
# <build-dir>/results/bench.json, then the table, the targets and the plot
# <build-dir>/results/bench.png (ci/bench-report.py), then ndpad vs numpy.pad when the Python
# package and numpy are there.
# Usage: ci/bench.sh [--kernels] [--no-build] [build-dir]   (default build dir: build/)
#   --kernels   also run ndpad-bench-kernels (every kernel-list entry per ISA; ~1 minute)
#               into <build-dir>/results/bench-kernels.json and print the speedups over scalar
#   --no-build  the build dir is built already (ci/main-job.sh builds once for everything)
# Environment:
#   NDPAD_TUNE_BUDGET        seconds of ndpad-tune before the benchmark (default 30; 0 = no
#                            tuning: plans use the wisdom file as it is, or the heuristic)
#   NDPAD_TUNE_LARGE         1 (default): ndpad-tune --large also tunes the large-output
#                            classes (>= 256 MiB out); 0: not
#   NDPAD_BENCH_TUNING       cache (default: tiles from the wisdom) or heuristic (the
#                            planner's tiles only): compare the two with two runs
#   NDPAD_BENCH_THREADS      thread counts, e.g. "1,2" (default 1 .. all cores)
#   NDPAD_BENCH_REPETITIONS  repetitions of every benchmark (default 3)
#   NDPAD_BENCH_MIN_TIME     seconds of timed calls per repetition (default 0.25)
#   NDPAD_BENCH_ARGS         more flags for ndpad-bench, e.g. "--benchmark_filter=conv"
#   NDPAD_BENCH_RESULTS      where the results go (default <build-dir>/results/)
#   NDPAD_BENCH_PYTHON       the interpreter of the ndpad vs numpy.pad step (default Debian's
#                            /usr/bin/python3; ci/main-job.sh passes its PyPI venv's: numpy 2)
#   NDPAD_WISDOM             the wisdom file ndpad-tune writes and the plans read (default
#                            $XDG_CACHE_HOME/ndpad/wisdom or ~/.cache/ndpad/wisdom)
# Optional Debian packages it installs when missing and it may (root or sudo): for the plot
# python3-matplotlib, for the XNNPACK comparison libxnnpack-dev libpthreadpool-dev
# libcpuinfo-dev. Without them the job runs and says what it skipped.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kernels=0 build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --kernels) kernels=1; shift ;;
        --no-build) build=0; shift ;;
        *) break ;;
    esac
done
build_dir="$(realpath -m "${1:-$root/build}")"
results="$(realpath -m "${NDPAD_BENCH_RESULTS:-$build_dir/results}")"
repetitions="${NDPAD_BENCH_REPETITIONS:-3}"
min_time="${NDPAD_BENCH_MIN_TIME:-0.25}"
budget="${NDPAD_TUNE_BUDGET:-30}"
cd "$root"

say() { echo "bench.sh: $*"; }

# 1. Optional packages (the required ones come from ci/install-deps.sh).
optional=(python3 python3-matplotlib libxnnpack-dev libpthreadpool-dev libcpuinfo-dev)
missing=()
for pkg in "${optional[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
        || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo -n); fi
    say "installing optional packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! { "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
               </dev/null >/dev/null 2>&1 \
           || { "${sudo[@]}" apt-get update -qq </dev/null >/dev/null 2>&1 \
                && "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
                       </dev/null >/dev/null 2>&1; }; }; then
        say "could not install ${missing[*]}; going on without them"
    fi
fi

# 2. Release build (ci/build.sh configures Release), unless the caller built it.
if [ "$build" -eq 1 ]; then bash ci/build.sh "$build_dir"; fi
bench="$build_dir/bench/ndpad-bench"
if [ ! -x "$bench" ]; then
    say "FAIL: $bench was not built: Google Benchmark (libbenchmark-dev) missing? Run ci/install-deps.sh" >&2
    exit 1
fi
mkdir -p "$results"

# 3. Tuning, when the tuner exists: a short budget, its wisdom then used by the plans
#    (unless NDPAD_BENCH_TUNING=heuristic).
tuner="$build_dir/tuning/ndpad-tune"
if [ "$budget" = 0 ]; then
    say "no tuning (NDPAD_TUNE_BUDGET=0)"
elif [ -x "$tuner" ]; then
    # The large-output classes (over 256 MiB out, about 0.6 GiB of scratch each) unless
    # NDPAD_TUNE_LARGE=0.
    tune_args=(--budget "$budget")
    [ "${NDPAD_TUNE_LARGE:-1}" = 0 ] || tune_args+=(--large)
    say "tuning: $tuner ${tune_args[*]} (output in $results/tune.txt)"
    status=0
    "$tuner" "${tune_args[@]}" >"$results/tune.txt" 2>&1 || status=$?
    if [ "$status" = 0 ]; then
        grep -E '^(wisdom written|tuning took)' "$results/tune.txt" | sed 's/^/bench.sh: /' || true
    elif [ "$status" = 3 ]; then
        # Status 3: every class refused (a loaded machine); the wisdom file is unchanged.
        grep -E 'nothing was tuned|machine noise' "$results/tune.txt" | sed 's/^/bench.sh: /' || true
        say "warning: nothing tuned (machine loaded); benchmarking with the wisdom as it is"
    else
        cat "$results/tune.txt" >&2
        say "warning: ndpad-tune failed (status $status); benchmarking with the wisdom as it is"
    fi
else
    say "no tuner ($tuner): plans use the planner's heuristic tiles"
fi

# 4. The standard cases. The console output goes to results/bench.txt; the table follows.
read -r -a extra <<<"${NDPAD_BENCH_ARGS:-}"
say "running ndpad-bench: $repetitions repetitions of ${min_time} s, tuning ${NDPAD_BENCH_TUNING:-cache} (console output in $results/bench.txt)"
start=$SECONDS
"$bench" --benchmark_repetitions="$repetitions" --benchmark_min_time="$min_time" \
    --benchmark_out="$results/bench.json" --benchmark_out_format=json "${extra[@]}" \
    >"$results/bench.txt" 2>&1 || { cat "$results/bench.txt" >&2; say "FAIL: ndpad-bench" >&2; exit 1; }
say "ndpad-bench took $((SECONDS - start)) s"

report_args=("$results/bench.json" --plot "$results/bench.png")
if [ "$kernels" -eq 1 ]; then
    say "running ndpad-bench-kernels (console output in $results/bench-kernels.txt)"
    "$build_dir/bench/ndpad-bench-kernels" --benchmark_out="$results/bench-kernels.json" \
        --benchmark_out_format=json >"$results/bench-kernels.txt" 2>&1 \
        || { cat "$results/bench-kernels.txt" >&2; say "FAIL: ndpad-bench-kernels" >&2; exit 1; }
    report_args+=(--kernels "$results/bench-kernels.json")
fi

# 5. The table (Debian's python3, where python3-matplotlib is installed).
py=/usr/bin/python3
[ -x "$py" ] || py="$(command -v python3 || true)"
if [ -z "$py" ]; then
    say "FAIL: python3 is needed for the table (Debian: python3)" >&2
    exit 1
fi
echo
"$py" ci/bench-report.py "${report_args[@]}" | tee "$results/table.txt"

# 6. ndpad vs numpy.pad, same run, when the Python package, its benchmark and numpy exist.
: >"$results/numpy.txt"
pynp="${NDPAD_BENCH_PYTHON:-$py}"
if [ -f python/ndpad/__init__.py ] && [ -f python/bench/bench_numpy.py ] \
   && "$pynp" -c 'import numpy' 2>/dev/null; then
    echo
    say "ndpad vs numpy.pad with $pynp (numpy $("$pynp" -c 'import numpy; print(numpy.__version__)'))"
    for shape in "1,64,256,256 1" "1,3,1080,1920 8"; do
        read -r dims pad <<<"$shape"
        NDPAD_LIBRARY="$build_dir/libndpad.so" PYTHONDONTWRITEBYTECODE=1 \
            "$pynp" python/bench/bench_numpy.py --repeat 7 --shape "$dims" --pad "$pad" \
            | tee -a "$results/numpy.txt" || say "warning: python/bench/bench_numpy.py failed"
    done
else
    say "ndpad vs numpy.pad skipped (needs python/ndpad, python/bench/bench_numpy.py and numpy)"
fi
# Sub-byte elements (issue 36): int4 4096 x 4096 against a memcpy of the output (1 thread,
# interleaved; targets 1.3x at whole-byte offsets, 2x at odd element offsets), then against
# numpy's unpack -> pad -> repack (the stand-in for a runtime without sub-byte pads).
bits="$build_dir/bench/ndpad-bench-bits"
if [ -x "$bits" ]; then
    echo
    say "running ndpad-bench-bits (table in $results/bits.txt)"
    "$bits" 1 "${NDPAD_BITS_ROUNDS:-61}" | tee "$results/bits.txt" \
        || { say "FAIL: ndpad-bench-bits" >&2; exit 1; }
    if "$py" -c 'import numpy' 2>/dev/null; then
        NDPAD_LIBRARY="$build_dir/libndpad.so" PYTHONDONTWRITEBYTECODE=1 \
            "$py" python/bench/bench_bits_numpy.py --repeat 9 | tee -a "$results/bits.txt" \
            || say "warning: python/bench/bench_bits_numpy.py failed"
    fi
fi
# The row-length sweep and the standard cases, both ways against memcpy (back-to-back and
# interleaved), the cases' targets checked both ways, and its picture. The cases run
# NDPAD_SWEEP_REPETITIONS times (default 3; their medians are checked), the sweep's rows
# once. NDPAD_SWEEP=0 skips it (about 3 min).
sweep="$build_dir/bench/ndpad-bench-sweep"
if [ "${NDPAD_SWEEP:-1}" != 0 ] && [ -x "$sweep" ]; then
    say "running ndpad-bench-sweep (console output in $results/sweep.txt)"
    : >"$results/sweep.txt"
    # run_sweep JSON FLAGS...: one run of it into $results/JSON
    run_sweep() {
        local json="$1"; shift
        "$sweep" --benchmark_min_time="${NDPAD_SWEEP_MIN_TIME:-0.05}" "$@" \
            --benchmark_out="$results/$json" --benchmark_out_format=json \
            >>"$results/sweep.txt" 2>&1 || { cat "$results/sweep.txt" >&2; say "FAIL: ndpad-bench-sweep" >&2; exit 1; }
    }
    run_sweep sweep.json --benchmark_filter='^(sweep|oneshot|planned)/'
    run_sweep sweep-classes.json --benchmark_filter='^class/' \
        --benchmark_repetitions="${NDPAD_SWEEP_REPETITIONS:-3}"
    "$py" ci/bench-sweep.py "$results/sweep.json" "$results/sweep-classes.json" \
        --out "$results/sweep.png" \
        | tee "$results/sweep-table.txt" || say "warning: ci/bench-sweep.py failed"
fi

# Threads under load (issue 31): 1- and 2-thread plans alternated, idle, beside CPU-bound
# processes of its own and beside another ndpad process; ndpad's default, the fixed OpenMP
# team, a host pthreads pool, memcpy on a team. NDPAD_LOAD=0 skips it; NDPAD_LOAD_VARIANTS
# and NDPAD_LOAD_CALLS choose (the fixed team stalls for milliseconds under load: with it
# the run takes minutes, so the main job runs the others).
load="$build_dir/bench/ndpad-bench-load"
if [ "${NDPAD_LOAD:-1}" != 0 ] && [ -x "$load" ]; then
    say "running ndpad-bench-load (table in $results/load.txt)"
    "$load" --calls="${NDPAD_LOAD_CALLS:-401}" \
        --variants="${NDPAD_LOAD_VARIANTS:-default,loop,pool,memcpy}" \
        | tee "$results/load.txt" || { say "FAIL: ndpad-bench-load" >&2; exit 1; }
fi

# Constants per side and per channel (issue 36) against the single constant on the conv
# case and NHWC 1x224x224x3: plans and one-shot calls, interleaved rounds in one process,
# medians of the per-round ratios (target: within 1.1x), 1 thread and all cores.
sides="$build_dir/bench/ndpad-bench-sides"
if [ -x "$sides" ]; then
    say "running ndpad-bench-sides (table in $results/sides.md)"
    { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; echo
      "$sides" 1 "${NDPAD_SIDES_ROUNDS:-101}"; echo
      "$sides" 0 "${NDPAD_SIDES_ROUNDS:-101}" | tail -n +3; } \
        | tee "$results/sides.md" || { say "FAIL: ndpad-bench-sides" >&2; exit 1; }
fi

: >"$results/torch.txt"
: >"$results/torch-pool.txt"
: >"$results/load-torch.txt"
: >"$results/torch-peer.txt"
# ndpad.torch needs torch >= 2.4: the venv's (NDPAD_BENCH_PYTHON; main-job.sh makes it).
if "$pynp" -c 'import torch, sys; sys.exit(tuple(map(int, torch.__version__.split(".")[:2])) < (2, 4))' 2>/dev/null; then
    echo
    NDPAD_LIBRARY="$build_dir/libndpad.so" PYTHONDONTWRITEBYTECODE=1 "$pynp" python/bench/bench_torch.py \
        | tee "$results/torch.txt" || say "warning: python/bench/bench_torch.py failed"
    echo
    NDPAD_LIBRARY="$build_dir/libndpad.so" PYTHONDONTWRITEBYTECODE=1 "$pynp" python/bench/bench_torch_pool.py \
        | tee "$results/torch-pool.txt" || say "warning: python/bench/bench_torch_pool.py failed"
    echo   # torch's own F.pad under ndpad-bench-load's loads: load.txt's torch column
    PYTHONDONTWRITEBYTECODE=1 "$pynp" python/bench/bench_torch_load.py \
        --calls="${NDPAD_LOAD_CALLS:-401}" --bench-load="$load" \
        | tee "$results/load-torch.txt" || say "warning: python/bench/bench_torch_load.py failed"
    echo   # ndpad against torch's own out= kernels at 1 and 2 threads, alternated (issue 44)
    NDPAD_LIBRARY="$build_dir/libndpad.so" PYTHONDONTWRITEBYTECODE=1 "$pynp" python/bench/bench_torch_peer.py \
        --out "$results/torch-peer.txt" || say "warning: python/bench/bench_torch_peer.py failed"
else
    say "ndpad.torch vs torch skipped (needs torch >= 2.4: NDPAD_BENCH_PYTHON)"
fi
say "results in $results/ (bench.json, bench.txt, table.txt, bench.png, tune.txt, bits.txt, sweep.json, sweep-classes.json, sweep-table.txt, sweep.png, load.txt, load-torch.txt, sides.md, torch.txt, torch-pool.txt, torch-peer.txt)"
