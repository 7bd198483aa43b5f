#!/usr/bin/env bash
# Sanitizer tier.
#   1. AddressSanitizer + UndefinedBehaviorSanitizer (gcc, -O1, every check fatal, leaks
#      checked): the whole ctest suite (every test, the fuzz corpus replays, and each test
#      once more per instruction set this CPU runs, as ci/test.sh does).
#   2. ThreadSanitizer (clang, -fsanitize=thread): tests/test-threads, in which 8 threads
#      execute one plan on different buffers while other threads create, execute and
#      destroy plans and churn the wisdom (those plans run with options.threads = 1: the
#      concurrency is the test's pthreads), plus calls from inside an outer OpenMP region and
#      OpenMP-team plans started from 4 pthreads at once. OpenMP is LLVM's libomp (clang's
#      -fopenmp) with Archer (OMP_TOOL_LIBRARIES=libarcher.so), which gives TSan the
#      happens-before edges of regions and barriers; gcc's libgomp has no such tool and its
#      barriers show up as races. libomp itself is not instrumented, so ci/tsan.supp ignores
#      calls made from inside libomp.so (its internal locks) and nothing else: a race on
#      ndpad's or the test's memory fails the run. The same test without OpenMP
#      (NDPAD_TEST_NO_OPENMP=1) runs first, with no suppression at all. tests/test-host-pool
#      (ndpad's workers and hostile host pools) runs with libomp + Archer too.
#
# Usage: ci/sanitize.sh [asan-build-dir [tsan-build-dir]]   (default: build-asan/, build-tsan/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
asan_dir="$(realpath -m "${1:-$root/build-asan}")"
tsan_dir="$(realpath -m "${2:-$root/build-tsan}")"
cd "$root"

# clang with its sanitizer runtimes, and LLVM's OpenMP runtime for clang (TSan + Archer)
bash ci/install-deps.sh clang libclang-rt-14-dev libomp-dev

# The lower instruction sets this CPU runs (as ci/test.sh): each test runs once more per ISA.
isas="$(bash ci/test-isas.sh)"

start=$SECONDS
echo "sanitize.sh: [1/2] ASan + UBSan build of the whole suite in $asan_dir"
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
cmake -S "$root" -B "$asan_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DNDPAD_TEST_ISAS="$isas" -DNDPAD_BUILD_BENCH=OFF >/dev/null
cmake --build "$asan_dir" -j2
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
NDPAD_WISDOM=/nonexistent/ndpad-sanitize/wisdom \
    ctest --test-dir "$asan_dir" --output-on-failure --no-tests=error -j2 --timeout 1200
unset ASAN_OPTIONS UBSAN_OPTIONS
echo "sanitize.sh: ASan + UBSan suite clean ($((SECONDS - start)) s so far)"

echo "sanitize.sh: [2/2] ThreadSanitizer build of tests/test-threads in $tsan_dir"
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=thread"
cmake -S "$root" -B "$tsan_dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
    -DNDPAD_BUILD_BENCH=OFF -DNDPAD_BUILD_TUNER=OFF >/dev/null
cmake --build "$tsan_dir" -j2 --target test-threads test-host-pool
archer="$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | sort -V | tail -1 || true)"
if [ -z "$archer" ]; then
    echo "sanitize.sh: libarcher.so (package libomp-dev) not found" >&2
    exit 1
fi
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" NDPAD_TEST_NO_OPENMP=1 \
    "$tsan_dir/tests/test-threads"
echo "sanitize.sh: ThreadSanitizer, pthreads only (no suppression): clean"
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/ci/tsan.supp" \
    OMP_TOOL_LIBRARIES="$archer" ARCHER_OPTIONS="verbose=1" "$tsan_dir/tests/test-threads"
# ndpad's workers and hostile host pools (reverse, shuffled, a fresh thread per task, all at
# once, fewer threads), the fixed team beside them; with the same suppression (ndpad's
# executor asks omp_in_parallel() on each task's fresh thread, and libomp's first-call
# set-up there is invisible to TSan). The fork test is skipped: TSan does not follow
# threads started in a forked child of a threaded process.
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/ci/tsan.supp" \
    OMP_TOOL_LIBRARIES="$archer" NDPAD_TEST_NO_FORK=1 "$tsan_dir/tests/test-host-pool"
echo "sanitize.sh: ThreadSanitizer with OpenMP (libomp + Archer): clean"
echo "sanitize.sh: all sanitizer runs passed in $((SECONDS - start)) s"
