#!/usr/bin/env bash
# Fuzzing tier: build the libFuzzer targets of tests/fuzz with clang (library, reference and
# targets all instrumented: -fsanitize=fuzzer-no-link,address,undefined) and run each for a
# bounded time, starting from the seed corpus in tests/fuzz/corpus/<name>. Any finding
# (crash, sanitizer report, leak, FUZZ_CHECK failure, timeout) fails the script; the input
# is kept in <build-dir>/artifacts/ and is replayed with
#     <build-dir>/tests/fuzz/fuzz-<name> <artifact>
# A finding becomes a regression test by copying it into tests/fuzz/corpus/<name>/ (the
# ctest fuzz-<name>-replay tests replay every file there, with any compiler).
#
# Usage: ci/fuzz.sh [build-dir]            (default: build-fuzz/)
# Environment: FUZZ_TARGETS  which fuzzers (default "pad onnx wisdom bits")
#              FUZZ_SEED     libFuzzer's seed (default 1); 0 = a new random seed each run
#              FUZZ_RUNS     executions per fuzzer (default: per target, about a minute here)
#              FUZZ_SECONDS  time limit per fuzzer (default 150)
# A fixed seed and a fixed number of runs keep CI runs close to one another (a time limit
# alone would explore more on a faster machine); they are not identical, since coverage
# also depends on buffer addresses, so a CI run can still find something new: its input is
# printed and kept as an artifact. Explore further by hand:
#     FUZZ_SEED=0 FUZZ_RUNS=-1 FUZZ_SECONDS=3600 bash ci/fuzz.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build-fuzz}")"
seconds="${FUZZ_SECONDS:-150}"
seed="${FUZZ_SEED:-1}"
default_runs() {   # about a minute each on this project's 2-core CI machine (pad slows as its corpus grows)
    case "$1" in
        pad) echo 30000 ;;
        onnx) echo 600000 ;;
        wisdom) echo 4000 ;;
        bits) echo 30000 ;;
        *) echo 20000 ;;
    esac
}
targets="${FUZZ_TARGETS:-pad onnx wisdom bits}"
cd "$root"

# clang with libFuzzer and the sanitizer runtimes, and LLVM's OpenMP runtime for clang
bash ci/install-deps.sh clang libclang-rt-14-dev libomp-dev

flags="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined"
flags+=" -fno-sanitize-recover=undefined"
cmake -S "$root" -B "$build_dir" -G "Unix Makefiles" \
    -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="" \
    -DNDPAD_BUILD_FUZZERS=ON -DNDPAD_BUILD_BENCH=OFF -DNDPAD_BUILD_TUNER=OFF >/dev/null
fuzzers=()
for name in $targets; do fuzzers+=("fuzz-$name"); done
cmake --build "$build_dir" -j2 --target "${fuzzers[@]}"

artifacts="$build_dir/artifacts"
mkdir -p "$artifacts"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export NDPAD_WISDOM=/nonexistent/ndpad-fuzz/wisdom   # never the user's wisdom file

summary=()
failed=0
for name in $targets; do
    seeds="$root/tests/fuzz/corpus/$name"
    work="$build_dir/corpus/$name"            # grows run after run; seeds stay untouched
    mkdir -p "$work"
    log="$build_dir/fuzz-$name.log"
    runs="${FUZZ_RUNS:-$(default_runs "$name")}"
    echo "fuzz.sh: fuzz-$name: $runs runs, seed $seed, at most ${seconds}s (seeds: $(ls "$seeds" | wc -l) files)"
    status=0
    began=$SECONDS
    "$build_dir/tests/fuzz/fuzz-$name" -seed="$seed" -runs="$runs" \
        -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$name-" "$work" "$seeds" </dev/null >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 || true)
    took=$((SECONDS - began))
    line="fuzz-$name: ${execs:-?} execs in ${took}s, ${rate:-?} execs/s, ${cov:-cov: ?}, corpus $(ls "$work" | wc -l) files"
    if [ "$status" -ne 0 ]; then
        failed=1
        line+=" -- FINDING (exit $status)"
        echo "fuzz.sh: fuzz-$name found something; the end of its log:" >&2
        tail -60 "$log" >&2
        ls -1 "$artifacts"/"$name"-* 2>/dev/null | sed 's/^/fuzz.sh: artifact /' >&2 || true
    fi
    echo "fuzz.sh: $line"
    summary+=("$line")
done

echo "fuzz.sh: summary"
printf '  %s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
    echo "fuzz.sh: FAILED: reproduce with <build-dir>/tests/fuzz/fuzz-<name> <artifact>" >&2
    exit 1
fi
echo "fuzz.sh: all fuzzers clean"
