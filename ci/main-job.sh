#!/usr/bin/env bash
# The main job: what is missing gets installed, a Release build, the demo (every worked
# example of the specifications, checked), a short tuning run (ndpad-tune), then the benchmark
# suite and its table: GB/s and time / memcpy's for every standard case at 1 .. all cores,
# with build/results/bench.json and the plot build/results/bench.png. A few minutes on 2 cores.
# Usage: ci/main-job.sh [build-dir]   (default: build/)
# The environment variables of ci/bench.sh apply (NDPAD_TUNE_BUDGET, NDPAD_BENCH_TUNING,
# NDPAD_BENCH_THREADS, NDPAD_BENCH_REPETITIONS, ...). Non-interactive (CI=true, no stdin).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
cd "$root"
start=$SECONDS

bash ci/install-deps.sh
bash ci/build.sh "$build_dir"
echo
"$build_dir/bench/ndpad-demo"
echo
bash ci/bench.sh "$build_dir"
echo "main-job: done in $((SECONDS - start)) s"
