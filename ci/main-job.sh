#!/usr/bin/env bash
# The main job: what is missing gets installed, a Release build, the demo (every worked
# example of the specifications, checked), a short tuning run (ndpad-tune), then the benchmark
# suite and its table: GB/s and time / memcpy's for every standard case at 1 .. all cores,
# with build/results/bench.json and the plot build/results/bench.png, and the tuner's own
# measurement: every case's wisdom plan against its heuristic plan in interleaved rounds, in
# one process (ndpad-bench-tuned), into build/results/tuned-vs-heuristic.txt. A few minutes
# on 2 cores.
# The Python package's numpy benchmark runs on PyPI's numpy 2, in the virtual environment
# ci/python-venv.sh makes (<build-dir>-venv, shared with ci/test-python.sh;
# NDPAD_PYTHON_PYPI=0: Debian's numpy instead); so does the engines benchmark
# (python/bench/bench_engines.py: OpenVINO's own Pad against ndpad's extension, into
# build/results/engines.txt; skipped with NDPAD_PYTHON_PYPI=0).
# Usage: ci/main-job.sh [build-dir]   (default: build/)
# The environment variables of ci/bench.sh apply (NDPAD_TUNE_BUDGET, default 50 here,
# NDPAD_TUNE_LARGE, NDPAD_BENCH_TUNING, NDPAD_BENCH_THREADS, NDPAD_BENCH_REPETITIONS, ...).
# Non-interactive (CI=true, no stdin).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
results="$(realpath -m "${NDPAD_BENCH_RESULTS:-$build_dir/results}")"
cd "$root"
start=$SECONDS
# The large-output classes take seconds each to decide soundly: a longer budget than
# ci/bench.sh's own default.
export NDPAD_TUNE_BUDGET="${NDPAD_TUNE_BUDGET:-50}"

bash ci/install-deps.sh
bash ci/build.sh "$build_dir"
# The Python benchmark against numpy 2 from PyPI: the same venv ci/test-python.sh uses.
venv="$(realpath -m "${NDPAD_PYTHON_VENV:-$build_dir-venv}")"
if [ "${NDPAD_PYTHON_PYPI:-1}" != 0 ]; then
    t0=$SECONDS
    bash ci/python-venv.sh "$venv"
    echo "main-job: PyPI venv ready in $((SECONDS - t0)) s"
    export NDPAD_BENCH_PYTHON="${NDPAD_BENCH_PYTHON:-$venv/bin/python}"
fi
echo
"$build_dir/bench/ndpad-demo"
echo
bash ci/bench.sh --no-build "$build_dir"   # built once, above

# The tuner's target, measured: wisdom vs heuristic plans of every case (the large ones too
# when they were tuned), interleaved, same process, right after the tuning and the benches.
compare="$build_dir/bench/ndpad-bench-tuned"
if [ "$NDPAD_TUNE_BUDGET" != 0 ] && [ -x "$compare" ]; then
    compare_args=()
    [ "${NDPAD_TUNE_LARGE:-1}" = 0 ] || compare_args+=(--large)
    echo
    echo "main-job: tuned vs heuristic: $compare ${compare_args[*]} (into $results/tuned-vs-heuristic.txt)"
    mkdir -p "$results"
    t0=$SECONDS
    "$compare" "${compare_args[@]}" | tee "$results/tuned-vs-heuristic.txt"
    echo "main-job: ndpad-bench-tuned took $((SECONDS - t0)) s"
fi
# OpenVINO's own Pad against ndpad's extension (python/bench/bench_engines.py), in the PyPI
# venv: the extension built by CMake against its openvino, into build/results/engines.txt.
if [ "${NDPAD_PYTHON_PYPI:-1}" != 0 ]; then
    echo
    echo "main-job: OpenVINO's Pad vs ndpad's extension (into $results/engines.txt)"
    t0=$SECONDS
    ext="$(bash ci/openvino-extension.sh "$venv/bin/python" "$build_dir")"
    NDPAD_LIBRARY="$build_dir/libndpad.so" NDPAD_OPENVINO_EXTENSION="$ext" PYTHONPATH="$root/python" \
        "$venv/bin/python" python/bench/bench_engines.py --out "$results/engines.txt" </dev/null
    echo "main-job: bench_engines took $((SECONDS - t0)) s"
fi
echo "main-job: done in $((SECONDS - start)) s"
