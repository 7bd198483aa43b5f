#!/usr/bin/env bash
# valgrind memcheck on a subset of the suite: the hostile-input, allocation-failure and
# thread tests, the fuzz corpus replays, and the API and error suites, built with
# -O1 -g (no sanitizer). Any memcheck error or definite leak fails (--error-exitcode=1).
#
# Usage: ci/valgrind.sh [build-dir]      (default: build-valgrind/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build-valgrind}")"
cd "$root"

bash ci/install-deps.sh valgrind

cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="-O1 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="" \
    -DNDPAD_BUILD_BENCH=OFF -DNDPAD_BUILD_TUNER=OFF >/dev/null
targets=(test-hostile test-alloc test-threads test-api test-errors test-wisdom-file test-fork
         fuzz-pad-replay fuzz-onnx-replay fuzz-wisdom-replay)
cmake --build "$build_dir" -j2 --target "${targets[@]}"

# libgomp keeps its thread pool until exit: "possibly lost" blocks are its, not ndpad's.
# ci/valgrind.supp: one glibc loader block (hwloc's plugins dlopen()ed from a thread).
vg=(valgrind --tool=memcheck --error-exitcode=1 --leak-check=full
    --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-origins=yes
    --num-callers=40 --suppressions="$root/ci/valgrind.supp" --quiet)
export NDPAD_WISDOM=/nonexistent/ndpad-valgrind/wisdom
export OMP_NUM_THREADS=2
run() {
    echo "valgrind.sh: $*"
    "${vg[@]}" "$@" </dev/null
}
start=$SECONDS
for t in test-hostile test-alloc test-threads test-api test-errors test-wisdom-file; do
    run "$build_dir/tests/$t"
done
# test-fork: its single-threaded forks with the leak check; then its stress tests (hundreds
# of forks while other threads are inside ndpad) six forks each, memory errors only: a
# child leaks what the parent's other threads held at the fork (they do not exist there).
# Valgrind runs one thread at a time: with its default lock a thread calling ndpad_pad in a
# loop kept it from the forking thread for over six minutes (--fair-sched=yes mends that),
# and a thread that unlocks a mutex and locks it again at once keeps the mutex from the
# forking thread's atfork handler (the busy threads pause 200 us between calls).
NDPAD_TEST_FORKS=0 run "$build_dir/tests/test-fork"
echo "valgrind.sh: test-fork's stress tests, --leak-check=no --fair-sched=yes"
NDPAD_TEST_FORKS=6 NDPAD_TEST_WORKER_PAUSE_US=200 "${vg[@]}" --leak-check=no --fair-sched=yes \
    "$build_dir/tests/test-fork" </dev/null
for name in pad onnx wisdom; do
    run "$build_dir/tests/fuzz/fuzz-$name-replay" "$root/tests/fuzz/corpus/$name"
done
echo "valgrind.sh: memcheck clean ($((SECONDS - start)) s)"
